"""Which call wrote each line: the replay of writes and edits, aligned with the file now."""

from __future__ import annotations

from pathlib import Path

from file_edits import EditingSession

from pitui.core.file_history.blame import blame
from pitui.core.file_history.session_changes import FileChange, session_changes
from pitui.demo.builder import BASE_MS

HOUR = 3_600_000


def _changes(tmp_path: Path, *sessions: EditingSession) -> list[FileChange]:
    return [c for s in sessions for c in session_changes(str(s.save(tmp_path)))]


def _who(lines: list) -> list[tuple[str, str | None]]:
    return [(line.text, line.change.entry_id if line.change else None) for line in lines]


def test_written_then_edited_each_line_to_its_call(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.py", "import os\n\ndef main():\n    pass\n")
    e1 = s.edit("f.py", "    pass\n", "    print('hi')\n    return 0\n")
    e2 = s.edit("f.py", "import os\n", "import os\nimport sys\n")
    e3 = s.edit("f.py", "    return 0", "    return 1")
    s.edit("f.py", "not there", "x", error=True)  # failed: changed nothing
    now = "import os\nimport sys\n\ndef main():\n    print('hi')\n    return 1\n"
    assert _who(blame(_changes(tmp_path, s), now)) == [
        ("import os", w),
        ("import sys", e2),
        ("", w),
        ("def main():", w),
        ("    print('hi')", e1),
        ("    return 1", e3),
    ]


def test_lines_changed_by_hand_after_are_unexplained(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.txt", "a\nb\nc\n")
    e = s.edit("f.txt", "b", "B")
    lines = blame(_changes(tmp_path, s), "a\nB\nhand\nc\nmore by hand")
    assert _who(lines) == [("a", w), ("B", e), ("hand", None), ("c", w), ("more by hand", None)]
    assert [line.number for line in lines] == [1, 2, 3, 4, 5]
    assert lines[2].to_json() == {
        "line": 3, "text": "hand", "path": None, "sessionId": None, "id": None, "timestamp": None
    }  # fmt: skip
    assert lines[1].to_json()["sessionId"] == s.id


def test_sessions_in_time_order_and_a_write_overwrites(tmp_path: Path) -> None:
    one = EditingSession("/proj", seed=1)
    one.write("f.txt", "old\nlines\n")
    two = EditingSession("/proj", seed=2, ms=BASE_MS + HOUR)
    w = two.write("/proj/f.txt", "x\ny\nlines\n")
    three = EditingSession("/proj", seed=3, ms=BASE_MS + 2 * HOUR)
    e = three.edit("f.txt", "y\n", "why\n")
    changes = _changes(tmp_path, three, one, two)  # any order in
    assert _who(blame(changes, "x\nwhy\nlines\n")) == [("x", w), ("why", e), ("lines", w)]


def test_a_file_no_session_wrote_whole(tmp_path: Path) -> None:
    """Only edits, of a file that was there before: the text before them is rebuilt from
    the file now, the edits undone newest first."""
    s = EditingSession("/proj")
    e1 = s.edit("f.txt", "two", "TWO")
    e2 = s.edit("f.txt", "four\n", "four\nfive\n")
    now = "one\nTWO\nthree\nfour\nfive\n"
    assert _who(blame(_changes(tmp_path, s), now)) == [
        ("one", None),
        ("TWO", e1),
        ("three", None),
        ("four", None),
        ("five", e2),
    ]


def test_a_hand_change_between_two_calls(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.txt", "a\nb\nc\n")
    # by hand, between the calls: "b" became "bee", a line "d" was added
    e = s.edit("f.txt", "bee\n", "bee\nbuzz\n")
    assert _who(blame(_changes(tmp_path, s), "a\nbee\nbuzz\nc\nd\n")) == [
        ("a", w),
        ("bee", None),
        ("buzz", e),
        ("c", w),
        ("d", None),
    ]


def test_abandoned_branch_edits_happened_too(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.txt", "a\nb\n")
    tried = s.edit("f.txt", "a\n", "A\n")
    s.branch_from(w)
    kept = s.edit("f.txt", "b\n", "B\n")  # the file still had A: the tool ran on it
    assert _who(blame(_changes(tmp_path, s), "A\nB\n")) == [("A", tried), ("B", kept)]


def test_crlf_and_bom_on_disk(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.txt", "a\r\nb\r\n")
    e = s.edit("f.txt", "b", "c")
    assert _who(blame(_changes(tmp_path, s), "\ufeffa\r\nc\r\n")) == [("a", w), ("c", e)]


def test_a_fuzzy_match_and_two_edits_in_one_call(tmp_path: Path) -> None:
    s = EditingSession("/proj")
    w = s.write("f.py", "a = \u201cx\u201d   \nb\nc\n")
    edits = [{"oldText": 'a = "x"', "newText": 'a = "y"'}, {"oldText": "c", "newText": "C"}]
    e = s.call("edit", {"path": "f.py", "edits": edits})
    assert _who(blame(_changes(tmp_path, s), 'a = "y"\nb\nC\n')) == [
        ('a = "y"', e),
        ("b", w),
        ("C", e),
    ]
