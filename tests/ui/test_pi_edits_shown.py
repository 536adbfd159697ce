"""What Pi 1.6.0's own write and edit tools left in its sessions (`fixtures/pi_edits_files.mjs`,
every argument shape its edit tool normalises, a failed edit, a left branch, two sessions),
as pitui shows it: the message pane's diffs are Pi's, with its line numbers; the export's
diff fences; the files view's counts; the picker's `file:` finds what `pitui log` finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pi_written import write_pi_edits
from test_message_pane import PaneApp, rendered_text, show
from test_message_pane_edits import diff_lines

from pitui.core.catalog.catalog import Catalog
from pitui.core.export.export import export_session
from pitui.core.file_history.history import file_history
from pitui.core.file_history.session_files import session_files
from pitui.core.session.session import Session

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def pi_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pi_edits(tmp_path_factory.mktemp("pi-edits"))


def edit_results(session: Session) -> list[tuple[Any, dict[str, Any]]]:
    """(the assistant entry, its edit call's result message) of each edit Pi ran."""
    found = []
    for entry in session.tree.entries:
        message = entry.message if entry.role == "toolResult" else None
        if message and message.get("toolName") == "edit":
            call = session.tree.get(entry.parent_id)
            found.append((call, message))
    return found


async def test_the_pane_shows_pis_own_diff_of_each_edit(pi_root: Path) -> None:
    shown = 0
    async with PaneApp().run_test(size=(120, 60)) as pilot:
        for path in sorted((pi_root / "sessions").glob("*.jsonl")):
            session = Session(path)
            for call, result in edit_results(session):
                pane = await show(pilot, call, session.tree)
                lines = [line for line, _ in diff_lines(pane)]
                drawn = rendered_text(pane)
                if result.get("isError"):
                    assert lines and all(line[:1] in "+- " for line in lines)
                    continue
                details = result["details"]
                assert lines == details["diff"].split("\n")  # Pi's, line numbers and all
                assert f"first changed line: {details['firstChangedLine']}" in drawn
                assert "oldText" not in drawn
                shown += 1
    assert shown == 7  # 8 edits, one failed


def test_the_export_shows_each_edit_as_a_diff(pi_root: Path) -> None:
    for path in sorted((pi_root / "sessions").glob("*.jsonl")):
        text = export_session(Session(path)).text
        assert '"oldText"' not in text and '"edits"' not in text  # never an edit's JSON
        assert "```diff\n" in text


def test_the_files_view_counts_pis_calls(pi_root: Path) -> None:
    first, second = sorted((pi_root / "sessions").glob("*.jsonl"))
    (calc,) = session_files(str(first))
    assert calc.path == str(pi_root / "project" / "src" / "calc.py")
    assert calc.shown == "src/calc.py"
    assert calc.counts == {"write": 1, "edit": 7} and calc.failed == 1
    assert [u.counts for u in session_files(str(second))] == [{"edit": 1}]


def test_file_finds_the_sessions_log_names(pi_root: Path) -> None:
    project, sessions = pi_root / "project", pi_root / "sessions"
    with Catalog(sessions, custom_dir=sessions, cache_dir=pi_root / "cache") as catalog:
        catalog.scan()
        found = catalog.search("file:src/calc.py", here=str(project), index_tools=True)
        folder = catalog.search("file:src", here=str(project), index_tools=True)
        history = file_history(catalog.sessions(), (str(project / "src" / "calc.py"),))
    paths = {row.summary.path for row in found.rows}
    assert paths == set(history.sessions) == {str(p) for p in sessions.glob("*.jsonl")}
    assert {row.summary.path for row in folder.rows} == paths
