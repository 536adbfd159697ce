"""A session kept for a view shown again on every change: appended lines are read alone;
a file truncated, replaced or unreadable, or another path, is read whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from entry_builders import header, msg

from pitui.core.session.followed import FollowedSession
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session


def lines(first: int, count: int) -> bytes:
    out = [msg(f"e{i}", f"e{i - 1}" if i else None, text=f"said {i}") for i in range(first, first + count)]  # fmt: skip
    return b"".join(json.dumps(entry).encode() + b"\n" for entry in out)


def ids(session: Session) -> list[str]:
    return [entry.id for entry in session.tree.entries]


def fresh(path: Path) -> list[str]:
    return ids(Session(path))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    path.write_bytes(json.dumps(header()).encode() + b"\n" + lines(0, 5))
    return path


def test_appended_lines_are_read_alone_into_the_same_session(path: Path) -> None:
    followed = FollowedSession()
    with followed.use(path) as (first, update):
        assert update.reset and ids(first) == fresh(path)
    for start in (5, 8):
        with path.open("ab") as out:
            out.write(lines(start, 3))
        with followed.use(path) as (session, update):
            assert session is first and not update.reset
            assert [e.id for e in update.entries] == [f"e{i}" for i in range(start, start + 3)]
            assert ids(session) == fresh(path)


def test_a_truncated_or_replaced_file_is_read_whole(path: Path, tmp_path: Path) -> None:
    followed = FollowedSession()
    with followed.use(path):
        pass
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b'{"type": "message"', 200)])  # shorter: truncated
    with followed.use(path) as (session, update):
        assert update.reset and ids(session) == fresh(path) == ["e0"]
    other = tmp_path / "new.jsonl"
    other.write_bytes(json.dumps(header("s2")).encode() + b"\n" + lines(0, 7))
    os.replace(other, path)  # as Pi's migration renames a new file into place
    with followed.use(path) as (session, update):
        assert update.reset and session.id == "s2" and ids(session) == fresh(path)


def test_another_path_or_an_unreadable_file_reads_whole(path: Path, tmp_path: Path) -> None:
    followed = FollowedSession()
    other = tmp_path / "other.jsonl"
    other.write_bytes(json.dumps(header("s2")).encode() + b"\n" + lines(0, 2))
    with followed.use(path):
        pass
    with followed.use(other) as (session, update):
        assert update.reset and session.id == "s2"
    other.write_bytes(b"")  # emptied for a rewrite
    with pytest.raises(NotASession), followed.use(other):
        pass
    other.write_bytes(json.dumps(header("s3")).encode() + b"\n" + lines(0, 3))
    with followed.use(other) as (session, update):
        assert update.reset and session.id == "s3" and ids(session) == ["e0", "e1", "e2"]
