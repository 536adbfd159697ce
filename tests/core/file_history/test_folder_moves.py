"""A session `pitui move` moved: its calls' absolute paths under the old folder follow the
move, in the order the moves were made, and only for calls made before each move."""

from __future__ import annotations

from dataclasses import replace

from pitui.core.file_history.history import followed
from pitui.core.file_history.session_changes import OK, FileChange
from pitui.core.userdata.moves import earlier_paths
from pitui.core.userdata.store import CwdMove

CHANGE = FileChange(
    path="/p/old/src/a.py",
    tool="write",
    session_path="/s.jsonl",
    session_id="s1",
    entry_id="e1",
    timestamp="2026-01-01T00:00:00.000Z",
    call_id="c1",
    line=3,
    block=1,
    status=OK,
    branch="active",
    added=1,
    removed=0,
)
JAN_2 = 1_767_312_000.0  # 2026-01-02 UTC, in seconds
THERE, BACK = CwdMove("/p/old", "/p/new", JAN_2), CwdMove("/p/new", "/p/old", JAN_2 + 86_400)


def test_a_call_before_the_move_follows_it() -> None:
    assert followed(CHANGE, [THERE]).path == "/p/new/src/a.py"
    assert followed(CHANGE, []).path == "/p/old/src/a.py"
    elsewhere = replace(CHANGE, path="/p/older/a.py")  # not under the folder that moved
    assert followed(elsewhere, [THERE]) is elsewhere


def test_moved_there_and_back_and_a_call_made_in_between() -> None:
    assert followed(CHANGE, [THERE, BACK]).path == "/p/old/src/a.py"
    between = replace(CHANGE, path="/p/new/src/a.py", timestamp="2026-01-02T12:00:00.000Z")
    assert followed(between, [THERE, BACK]).path == "/p/old/src/a.py"
    after = replace(CHANGE, timestamp="2026-01-05T00:00:00.000Z")  # a new folder at OLD
    assert followed(after, [THERE, BACK]).path == "/p/old/src/a.py"
    assert followed(replace(after, path="/p/new/x"), [THERE, BACK]).path == "/p/new/x"


def test_the_index_is_asked_about_where_a_file_was_before_each_move() -> None:
    moves = {"s1": [THERE], "s2": [CwdMove("/q", "/p/old", JAN_2)]}
    assert earlier_paths(("/p/new/src/a.py",), moves) == (
        "/p/new/src/a.py",
        "/p/old/src/a.py",
        "/q/src/a.py",
    )
