"""The picker's archive scope: Alt+A lists pitui's archive (said on the status line), its rows
are marked archived, and resuming one asks whether to unarchive it first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import plain, session_files, settle, started, stub_pi
from waiting import wait_for

from pitui.core.changes.archive import archive_session
from pitui.ui.handoff import Handoff
from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.widgets.session_table import SessionTable

SIZE = (160, 40)


def _archived_one(demo_root: Path, archive: Path, cwd: Path) -> tuple[Path, Path]:
    path = max(session_files(demo_root))
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["cwd"] = str(cwd)  # an existing folder: resuming asks nothing else
    lines[0] = json.dumps(header, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    return path, archive_session(path, demo_root, archive, str(cwd))


async def test_alt_a_lists_the_archive_and_resume_unarchives_first(
    app_factory: Any, demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub_pi(tmp_path, monkeypatch)
    archive = tmp_path / "archive"
    original, archived = _archived_one(demo_root, archive, tmp_path)
    app = app_factory(archive_dir=archive)
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        assert len(picker.rows) == 11 and str(original) not in {r.summary.path for r in picker.rows}
        assert "alt+a: archive" in plain(picker.query_one("#picker-status"), 300).lower()
        await pilot.press("alt+a")
        await wait_for(pilot, lambda: len(picker.rows) == 1)
        assert picker.rows[0].summary.path == str(archived)
        status = plain(picker.query_one("#picker-status"), 300)
        assert status.startswith("archive · ") and "back" in status
        assert "(archived)" in picker.query_one(SessionTable).render_line(1).text
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("enter")  # "Unarchive, then resume" has the focus
        await pilot.pause()
    assert app.return_value == Handoff(["pi", "--session", str(original)], str(tmp_path))
    assert original.exists() and not archived.exists()


async def test_an_empty_archive_says_how_sessions_get_there(
    app_factory: Any, tmp_path: Path
) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    async with app_factory(archive_dir=archive).run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await pilot.press("alt+a")
        await wait_for(pilot, lambda: not picker.rows and not picker.search_pending)
        await settle(pilot)
        empty = plain(picker.query_one("#picker-empty"), 300)
        assert empty.startswith("No archived sessions: `pitui archive`"), empty


async def test_the_stats_of_the_archive_say_so(
    app_factory: Any, demo_root: Path, tmp_path: Path
) -> None:
    """Alt+A then Alt+S summed the archived sessions under the title "all sessions"."""
    from pitui.ui.screens.stats import StatsScreen

    archive = tmp_path / "archive"
    _archived_one(demo_root, archive, tmp_path)
    app = app_factory(archive_dir=archive)
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await pilot.press("alt+a")
        await wait_for(pilot, lambda: len(picker.rows) == 1)
        await pilot.press("alt+s")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        assert plain(app.screen.query_one("#stats-title"), 200).strip() == "Usage · the archive"
