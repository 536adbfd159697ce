"""The folder moves `pitui move` recorded: a call's path under an old folder follows each
move, in the order the moves were made, only for calls made before it, whichever session of
this machine made it (not a remote's)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from file_edits import EditingSession

from pitui.core.catalog.summary import SessionSummary
from pitui.core.file_history.history import file_history, followed
from pitui.core.file_history.session_changes import OK, FileChange
from pitui.core.userdata.moves import earlier_paths, in_order
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


def test_each_move_once_oldest_first() -> None:
    """A move is recorded for every session it took; a path follows it once."""
    moves = {"s1": [THERE, BACK], "s2": [THERE], "s3": [BACK]}
    assert in_order(moves) == [THERE, BACK]


def test_every_session_of_this_machine_follows_the_moves_a_mirrors_do_not(
    tmp_path: Path,
) -> None:
    """A session that did not move (run in the old folder's parent) wrote, before the move,
    what is now under the new folder; a remote's session wrote its own machine's folder."""
    session = EditingSession("/p", seed=1)  # at 2026-01-01, before THERE
    edited = session.write("old/src/a.py", "x\n")
    path = session.save(tmp_path)
    summary = SessionSummary(str(path), session.id, "/p", None, None, 0, 0, 1, "hi")
    moves = {"another session": [THERE]}
    found = file_history([summary], ("/p/new/src/a.py",), moves=moves)
    assert [(c.entry_id, c.path) for c in found.changes] == [(edited, "/p/new/src/a.py")]
    assert file_history([summary], ("/p/old/src/a.py",), moves=moves).changes == []
    mirrored = replace(summary, store="box")
    assert file_history([mirrored], ("/p/new/src/a.py",), moves=moves).changes == []
    assert len(file_history([mirrored], ("/p/old/src/a.py",), moves=moves).changes) == 1
