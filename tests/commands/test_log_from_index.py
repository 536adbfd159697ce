"""`pitui log` and `pitui blame` read only the sessions the index says wrote the file (its
file ops, filled with the tool output), and answer exactly what reading every session
answers: at 10,000 sessions that is a third of a second instead of ten."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from file_edits import CALC_BEFORE, CALC_EDITS, EditingSession, sessions_folder

from pitui.cli import main
from pitui.core.catalog.scan.tool_pass import ToolPass
from pitui.core.file_history import history
from pitui.demo.builder import BASE_MS

HOUR = 3_600_000
REAL_V1 = Path(__file__).resolve().parents[1] / "fixtures" / "pi-real-v1-large-session.jsonl"


def _store(project: Path) -> dict[str, Path]:
    """Sessions that write src/calc.py in several ways, and sessions that do not."""
    made: dict[str, Path] = {}

    def save(name: str, session: EditingSession) -> None:
        made[name] = session.save(sessions_folder(project))

    writer = EditingSession(project, seed=1)
    writer.write("src/calc.py", CALC_BEFORE)
    save("relative write", writer)
    editor = EditingSession("/elsewhere", seed=2, ms=BASE_MS + HOUR)
    editor.call("edit", {"path": str(project / "src/calc.py"), "edits": CALC_EDITS})
    save("absolute edit", editor)
    inside = EditingSession(project / "src", seed=3, ms=BASE_MS + 2 * HOUR)
    inside.call("edit", {"path": "./calc.py", "oldText": "a + b", "newText": "b + a"})
    save("legacy edit, run in src/", inside)
    failed = EditingSession(project, seed=4, ms=BASE_MS + 3 * HOUR)
    failed.edit("src/calc.py", "not there", "x", error=True)
    save("failed edit", failed)
    for seed in range(5, 9):
        other = EditingSession(project, seed=seed, ms=BASE_MS + seed * HOUR)
        other.write(f"docs/page-{seed}.md", "# page\n")
        other.call("read", {"path": "src/calc.py"})
        save(f"other file {seed}", other)
    return made


def _log(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict], str]:
    status = main(["log", *args, "--json"])
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


def _read_sessions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sessions the history reads, in order, from now on."""
    read: list[str] = []
    parse = history.session_changes

    def recorded(path: str):  # type: ignore[no-untyped-def]
        read.append(path)
        return parse(path)

    monkeypatch.setattr(history, "session_changes", recorded)
    return read


def test_only_the_sessions_that_wrote_the_file_are_read(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made = _store(project)
    read = _read_sessions(monkeypatch)
    status, found, _ = _log("src/calc.py", "--all", capsys=capsys)
    assert status == 0
    wrote = {made["relative write"], made["absolute edit"], made["legacy edit, run in src/"]}
    assert {c["path"] for c in found} == {str(p) for p in wrote}
    assert set(read) == {str(p) for p in wrote}  # not the failed edit's, not the others'
    read.clear()
    assert _log("src/nothing.py", "--all", capsys=capsys)[:2] == (1, [])
    assert read == []
    read.clear()
    assert _log("src/calc.py", "--all", "--no-cache", capsys=capsys)[1] == found
    assert len(read) == len(made)  # without the index, every session is read


def test_the_same_history_as_reading_every_session(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files and folders, relative and absolute paths, a real Pi session of the first format,
    a new session, and one grown by an edit after the index had its tool output."""
    _store(project)
    growing = EditingSession(project, seed=9, ms=BASE_MS + 9 * HOUR)
    growing.write("docs/page-9.md", "# page\n")
    grown = growing.save(sessions_folder(project))
    real_folder = sessions_folder(project) / "--Users-badlogic-workspaces-pi-mono--"
    real_folder.mkdir()
    shutil.copy(REAL_V1, real_folder / "2025-11-20T23-33-50-805Z_d703a1a9.jsonl")
    real = "/Users/badlogic/workspaces/pi-mono"
    real_files = sorted({c["file"] for c in _log(real, "--all", "--no-cache", capsys=capsys)[1]})
    assert len(real_files) >= 5
    for path in ["src/calc.py", "src", ".", "docs/page-5.md", real, *real_files[:8]]:
        assert _same_from_index(path, capsys), path
    later = EditingSession(project, seed=10, ms=BASE_MS + 10 * HOUR)
    later.write("src/calc.py", "x = 1\n")
    new = later.save(sessions_folder(project))
    found = _log("src/calc.py", "--all", capsys=capsys)[1]
    assert found[0]["path"] == str(new) and str(grown) not in {c["path"] for c in found}
    before = grown.read_bytes()
    growing.write("src/calc.py", "y = 2\n")
    whole = growing.save(tmp_path / "scratch").read_bytes()
    assert whole.startswith(before)
    with grown.open("ab") as file:  # as pi appends
        file.write(whole[len(before) :])
    assert _same_from_index("src/calc.py", capsys)
    assert str(grown) in {c["path"] for c in _log("src/calc.py", "--all", capsys=capsys)[1]}


def _same_from_index(path: str, capsys: pytest.CaptureFixture[str]) -> bool:
    from_index = _log(path, "--all", capsys=capsys)
    return from_index[:2] == _log(path, "--all", "--no-cache", capsys=capsys)[:2]


def test_sessions_whose_tool_output_is_not_indexed_are_read(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session the index could not take the tool output of (changed meanwhile, unreadable)
    is read rather than left out."""
    _store(project)
    monkeypatch.setattr(ToolPass, "index_of", lambda self, paths, progress=None: None)
    status, found, _ = _log("src/calc.py", "--all", capsys=capsys)
    assert status == 0 and len({c["path"] for c in found}) == 3


def test_a_file_name_that_is_not_utf8_is_found_as_by_reading(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path with a byte that is not UTF-8 (a lone surrogate in Python and in Pi's JSON):
    the index stores it with U+FFFD, and the history is still the one reading every session
    gives."""
    odd = "src/caf\udcff.py"
    session = EditingSession(project, seed=11)
    session.write("src/cafQQQQ.py", "x = 1\n")
    saved = session.save(sessions_folder(project))
    saved.write_bytes(saved.read_bytes().replace(b"QQQQ", b"\\udcff"))  # as Node writes it
    status, found, _ = _log(odd, "--all", capsys=capsys)
    assert status == 0 and len(found) == 1
    assert _same_from_index(odd, capsys)
    named = EditingSession(project, seed=12)  # a session file whose name is not UTF-8
    named.write("src/calc.py", "y = 2\n")
    saved = named.save(sessions_folder(project))
    oddly_named = os.fsencode(saved).replace(b".jsonl", b"-\xff.jsonl")
    os.rename(saved, oddly_named)
    status, found, _ = _log("src/calc.py", "--all", capsys=capsys)
    assert status == 0 and [c["sessionId"] for c in found] == [named.id]
    assert _same_from_index("src/calc.py", capsys)


def test_without_all_only_the_folders_sessions_are_indexed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A first `pitui log FILE` reads, and indexes the tool output of, only the sessions run
    in a folder that holds FILE: at 10,000 sessions a twentieth of the tool output."""
    from pitui.core.catalog.catalog import Catalog

    made = _store(project)
    status, found, _ = _log("src/calc.py", capsys=capsys)
    assert status == 0 and str(made["absolute edit"]) not in {c["path"] for c in found}
    with Catalog(sessions_folder(project)) as catalog:
        pending = {task.path for task in catalog.index.tool_tasks()}
    assert pending == {str(made["absolute edit"])}  # run in /elsewhere
    assert _log("src/calc.py", "--all", capsys=capsys)[0] == 0
    with Catalog(sessions_folder(project)) as catalog:
        assert catalog.index.tool_tasks() == []
