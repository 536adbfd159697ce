"""The files one session read, wrote or edited, with each file's calls."""

from __future__ import annotations

from pathlib import Path

from file_edits import CALC_EDITS, EditingSession

from pitui.core.file_history.session_changes import ERROR, NO_RESULT, OK
from pitui.core.file_history.session_files import session_files


def test_every_file_read_written_or_edited_with_its_calls(tmp_path: Path) -> None:
    session = EditingSession("/home/u/proj")
    read = session.call("read", {"path": "src/calc.py", "offset": 1})
    write = session.write("/home/u/proj/src/calc.py", "x")
    edit = session.call("edit", {"path": "./src/../src/calc.py", "edits": CALC_EDITS})
    failed = session.edit("notes.md", "a", "b", error=True)
    unanswered = session.call("read", {"path": "/etc/hosts"}, answered=False)
    session.call("bash", {"command": "cat src/calc.py"})  # not a file tool
    session.call("read", {"offset": 3})  # no path: nothing to list
    uses = session_files(str(session.save(tmp_path / "sessions")))
    assert [(u.path, u.shown) for u in uses] == [
        ("/etc/hosts", "/etc/hosts"),
        ("/home/u/proj/notes.md", "notes.md"),
        ("/home/u/proj/src/calc.py", "src/calc.py"),
    ]
    hosts, notes, calc = uses
    assert calc.counts == {"read": 1, "write": 1, "edit": 1} and calc.failed == 0
    assert [(c.tool, c.call_entry_id, c.status) for c in calc.calls] == [
        ("read", read, OK),
        ("write", write, OK),
        ("edit", edit, OK),
    ]
    assert all(c.entry_id != c.call_entry_id for c in calc.calls)  # shown at the result
    assert [(c.call_entry_id, c.status) for c in notes.calls] == [(failed, ERROR)]
    assert notes.failed == 1
    assert [(c.entry_id, c.status) for c in hosts.calls] == [(unanswered, NO_RESULT)]
