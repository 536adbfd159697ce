"""One session's write and edit calls: paths, results, branches and line counts."""

from __future__ import annotations

import json
from pathlib import Path

from file_edits import CALC_DETAILS, CALC_EDITS, EditingSession

from pitui.core.file_history.session_changes import (
    ABANDONED,
    ACTIVE,
    ERROR,
    NO_RESULT,
    OK,
    session_changes,
)


def test_calls_paths_results_and_counts(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("src/calc.py", "def add(a, b):\n    return a + b\n")
    e1 = s.call("edit", {"path": "/proj/src/calc.py", "edits": CALC_EDITS}, details=CALC_DETAILS)
    bad = s.edit("src/calc.py", "nowhere", "x", error=True)
    legacy = s.call("edit", {"path": "@src/calc.py", "oldText": "a, b", "newText": "x, y"})
    as_text = s.call("edit", {"path": "src/calc.py", "edits": json.dumps(CALC_EDITS[:1])})
    unanswered = s.write("other.txt", "x\n", answered=False)
    s.call("read", {"path": "src/calc.py"})  # not a change
    changes = session_changes(str(s.save(tmp_path)))
    assert [c.entry_id for c in changes] == [w, e1, bad, legacy, as_text, unanswered]
    assert [c.path for c in changes] == ["/proj/src/calc.py"] * 5 + ["/proj/other.txt"]
    assert [c.status for c in changes] == [OK, OK, ERROR, OK, OK, NO_RESULT]
    assert [(c.added, c.removed) for c in changes] == [
        (2, 0),
        (3, 2),
        (1, 1),
        (1, 1),
        (2, 1),
        (1, 0),
    ]
    assert changes[3].edits[0].old_text == "a, b"
    assert {c.tool for c in changes} == {"write", "edit"} and changes[0].content is not None
    assert all(c.session_id == s.id and c.branch == ACTIVE for c in changes)
    assert changes[1].to_json() == {
        "path": "/proj/src/calc.py",
        "sessionId": s.id,
        "id": e1,
        "tool": "edit",
        "timestamp": changes[1].timestamp,
        "added": 3,
        "removed": 2,
        "branch": ACTIVE,
    }


def test_an_abandoned_branch_is_marked(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    first = s.write("a.txt", "one\n")
    tried = s.edit("a.txt", "one", "two")
    s.branch_from(first)  # back to the write, and on in another direction
    kept = s.edit("a.txt", "one", "three")
    changes = session_changes(str(s.save(tmp_path)))
    assert [(c.entry_id, c.branch) for c in changes] == [
        (first, ACTIVE),
        (tried, ABANDONED),
        (kept, ACTIVE),
    ]


def test_hostile_calls_never_break_the_scan(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    s.call("edit", {"path": 7, "edits": []})
    s.call("write", "not an object")
    s.call("edit", {"path": "a", "edits": [{"oldText": 1}]})  # answered "ok": not a real edit
    s.call("edit", {"path": "a", "edits": [{"oldText": 1}]}, error=True)
    changes = session_changes(str(s.save(tmp_path)))
    assert [(c.status, c.edits) for c in changes] == [(ERROR, ())]
