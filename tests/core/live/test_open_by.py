"""Who holds a file open, from Linux's /proc: a helper process holds it and waits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from holder import holding

from pitui.core.live import open_by

pytestmark = pytest.mark.skipif(not open_by.proc_available(), reason="needs Linux /proc")


@pytest.fixture
def session(tmp_path: Path) -> Path:
    path = tmp_path / "--p--" / "s.jsonl"
    path.parent.mkdir()
    path.write_bytes(b'{"type":"session","id":"s","cwd":"/p"}\n')
    return path


def _key(path: Path) -> tuple[int, int]:
    info = os.stat(path)
    return (info.st_dev, info.st_ino)


def test_a_holder_is_seen_by_inode_and_by_path(session: Path) -> None:
    with holding(session, "ab", name="pi") as process:
        found = open_by.snapshot()
        assert found is not None
        [holder] = found.holders(_key(session))
        assert (holder.pid, holder.command, holder.writing) == (process.pid, "pi", True)
        sessions = open_by.open_sessions()
        assert sessions is not None
        assert [h.to_json() for h in sessions.holders(str(session))] == [
            {"pid": process.pid, "command": "pi"}
        ]
        assert [(h.pid, h.command) for h in open_by.holders_of(session) or []] == [
            (process.pid, "pi")
        ]
    after = open_by.open_sessions()
    assert after is not None and after.holders(str(session)) == []
    assert open_by.holders_of(session) == []


def test_a_reader_is_a_holder_that_does_not_write(session: Path) -> None:
    with holding(session, "rb", name="viewer") as process:
        found = open_by.snapshot([_key(session)])
        assert found is not None
        [holder] = found.holders(_key(session))
        assert (holder.pid, holder.command, holder.writing) == (process.pid, "viewer", False)


def test_a_session_seen_through_a_symlinked_folder(session: Path, tmp_path: Path) -> None:
    link = tmp_path / "linked"
    link.symlink_to(session.parent)
    with holding(session) as process:
        found = open_by.open_sessions()
        assert found is not None
        assert [h.pid for h in found.holders(str(link / session.name))] == [process.pid]
        assert found.under(str(link)) == [(str(session), [(process.pid, "pi")])]
        assert found.under(str(tmp_path / "elsewhere")) == []


def test_this_process_can_be_left_out(session: Path) -> None:
    with open(session, "ab"):
        found = open_by.open_sessions(exclude=os.getpid())
        assert found is not None and found.holders(str(session)) == []
        mine = open_by.open_sessions()
        assert mine is not None and [h.pid for h in mine.holders(str(session))] == [os.getpid()]
