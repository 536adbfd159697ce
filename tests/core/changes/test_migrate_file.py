"""Migrating a v1/v2 file on disk loses no line another writer appends, at any moment."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pitui.core.changes import migrate_file
from pitui.core.changes.writer import set_name
from pitui.core.errors import PituiError
from pitui.core.session.session import Session
from pitui.demo.generate import generate_v1_session, generate_v2_session, write_session

OLD = 1_600_000_000
STEPS = ["locked", "snapshot", "written", "renaming", "renamed", "carried"]
HAS_PROC = Path("/proc/self/fdinfo").is_dir()


@pytest.fixture(params=["v1", "v2"])
def old_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    make = generate_v1_session if request.param == "v1" else generate_v2_session
    header, entries = make(random.Random(21))
    path = write_session(tmp_path / "old.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    return path


def _injected(tag: str) -> bytes:
    """A line as another writer appends it (Pi's appendFileSync: open, write, close)."""
    entry = {
        "type": "custom",
        "customType": "injected",
        "id": f"i{zlib.crc32(tag.encode()):08x}",
        "parentId": None,
        "timestamp": "2025-01-01T00:00:00.000Z",
        "data": {"tag": tag},
    }
    return (json.dumps(entry, separators=(",", ":")) + "\n").encode()


def _append_by_path(path: Path, tag: str) -> None:
    with path.open("ab") as handle:
        handle.write(_injected(tag))


def _tags(path: Path) -> list[str]:
    found = []
    for line in path.read_bytes().splitlines():
        value = json.loads(line)
        if value.get("customType") == "injected":
            found.append(value["data"]["tag"])
    return found


def _check_migrated(path: Path, ids_before: list[str], tags: list[str]) -> None:
    """Version 3, every entry pitui showed kept with its id, each injected line once, and
    the name written last by pitui readable."""
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and json.loads(lines[0])["version"] == 3
    assert sorted(_tags(path)) == sorted(tags)
    ids_after = [e.id for e in Session(path).tree.entries]
    assert ids_after[: len(ids_before)] == ids_before
    names = [json.loads(x) for x in lines[:-1] if b'"session_info"' in x]
    assert names and names[-1]["name"] == "n"
    assert not [p for p in path.parent.iterdir() if ".pitui-" in p.name]


@pytest.mark.parametrize("step", STEPS)
def test_an_append_at_each_step_is_kept(
    old_file: Path, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids_before = [e.id for e in Session(old_file).tree.entries]
    seen: list[str] = []

    def inject(name: str) -> None:
        seen.append(name)
        if name == step:
            _append_by_path(old_file, name)

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    set_name(old_file, "n", force=True)
    assert step in seen
    _check_migrated(old_file, ids_before, [step])


def test_appends_at_every_step_and_around_the_rename_are_all_kept(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several lines at each step, and just before and just after the rename itself (a
    patched os.rename, or the exchange of names that stands for it where there is one), as
    a busy writer reopening the file for each line would."""
    ids_before = [e.id for e in Session(old_file).tree.entries]
    tags: list[str] = []

    def inject(name: str) -> None:
        for n in range(3):
            tags.append(f"{name}-{n}")
            _append_by_path(old_file, tags[-1])

    def around(real: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def call(source: Any, target: Any) -> Any:
            inject("before-rename")
            done = real(source, target)
            inject("after-rename")
            return done

        return call

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    monkeypatch.setattr(os, "rename", around(os.rename))
    monkeypatch.setattr(migrate_file, "exchange", around(migrate_file.exchange))
    set_name(old_file, "n", force=True)
    assert {t.rsplit("-", 1)[0] for t in tags} >= {*STEPS, "before-rename", "after-rename"}
    _check_migrated(old_file, ids_before, tags)


def test_the_replaced_file_is_carried_over_until_its_writer_closes(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer opens the file just before the rename (after pitui's last check) and writes
    to the replaced inode afterwards, more than once: every line reaches the new file."""
    held: list[Any] = []

    def inject(name: str) -> None:
        if name == "renaming":
            held.append(old_file.open("ab"))  # the old inode, as a slow appendFileSync
        elif name == "renamed":
            held[0].write(_injected("late-1"))
            held[0].flush()
            # the first carry-over pass takes late-1; late-2 arrives while pitui waits
            monkeypatch.setattr(migrate_file, "process_writing", writing_once(held[0]))

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    set_name(old_file, "n", force=True)
    assert sorted(_tags(old_file)) == ["late-1", "late-2"]


def writing_once(handle: Any) -> Callable[[os.stat_result], str | None]:
    """A stand-in for the /proc check: the holder is there once more, writes, then closes."""
    calls = [0]

    def check(info: os.stat_result) -> str | None:
        calls[0] += 1
        if calls[0] == 1:
            handle.write(_injected("late-2"))
            handle.flush()
            return "pid 1 (test)"
        if not handle.closed:
            handle.close()
        return None

    return check


def test_a_writer_that_keeps_the_replaced_file_open_is_reported(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate_file, "HOLDER_WAIT_SECONDS", 0.2)
    monkeypatch.setattr(migrate_file, "process_writing", lambda info: "pid 42 (pi)")
    monkeypatch.setattr(migrate_file, "_refuse_if_written", lambda path, info: None)
    with pytest.raises(PituiError, match=r"pid 42 \(pi\) still has the old file open"):
        set_name(old_file, "n", force=True)
    assert json.loads(old_file.read_bytes().split(b"\n")[0])["version"] == 3


def test_unfinished_line_of_a_closed_writer_is_kept_and_ended(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def inject(name: str) -> None:
        if name == "written":
            with old_file.open("ab") as handle:
                handle.write(b'{"type":"custom","cut')

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    set_name(old_file, "n", force=True)
    lines = old_file.read_bytes().split(b"\n")
    assert lines[-3] == b'{"type":"custom","cut'  # ended, never glued to pitui's entry
    assert json.loads(lines[-2])["name"] == "n"


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")
def test_migration_refused_while_another_process_holds_the_file_for_writing(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate_file, "WRITER_GRACE_SECONDS", 0.1)
    before = old_file.read_bytes()
    with (
        _holder(old_file) as pid,
        pytest.raises(PituiError, match=rf"pid {pid} .*even when forced"),
    ):
        set_name(old_file, "n", force=True)
    assert old_file.read_bytes() == before


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")
def test_holder_opening_during_migration_stops_it_before_the_rename(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate_file, "WRITER_GRACE_SECONDS", 0.1)
    before = old_file.read_bytes()
    holders: list[Any] = []

    def inject(name: str) -> None:
        if name == "snapshot":
            holders.append(_holder(old_file))
            holders[0].__enter__()

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    try:
        with pytest.raises(PituiError, match="open for writing by pid"):
            set_name(old_file, "n", force=True)
    finally:
        holders[0].__exit__(None, None, None)
    assert old_file.read_bytes() == before
    assert not [p for p in old_file.parent.iterdir() if ".pitui-" in p.name]


class _holder:
    """Another process holding `path` open for appending, as a long-running writer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> int:
        code = (
            "import sys,time; f=open(sys.argv[1],'ab'); print('ready',flush=True); time.sleep(60)"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(self.path)], stdout=subprocess.PIPE
        )
        assert self.proc.stdout is not None and self.proc.stdout.readline() == b"ready\n"
        return self.proc.pid

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def _write_to_replaced_file(
    path: Path, monkeypatch: pytest.MonkeyPatch, then: Callable[[Any], None]
) -> None:
    """Open the original just before the rename; at the next step, `then(handle)`."""
    held: list[Any] = []

    def inject(name: str) -> None:
        if name == "renaming":
            held.append(path.open("r+b"))
        elif name == "renamed":
            then(held[0])
            held[0].close()

    monkeypatch.setattr(migrate_file, "checkpoint", inject)


def test_replaced_file_rewritten_in_place_is_reported(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An old Pi migrating the same file rewrites it in place (writeFileSync): the bytes past
    the snapshot are then not appended lines, and pitui says so rather than copying them."""

    def rewrite(handle: Any) -> None:
        handle.truncate(0)
        handle.write(b'{"type":"session","version":3}\n' + b"x" * 10000 + b"\n")
        handle.flush()

    _write_to_replaced_file(old_file, monkeypatch, rewrite)
    with pytest.raises(PituiError, match="rewritten by another program"):
        set_name(old_file, "n", force=True)


def test_disk_full_while_carrying_over_is_reported(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def append_then_fill_disk(handle: Any) -> None:
        handle.seek(0, os.SEEK_END)
        handle.write(_injected("late"))
        handle.flush()

        def full(fd: int, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", full)

    _write_to_replaced_file(old_file, monkeypatch, append_then_fill_disk)
    with pytest.raises(PituiError, match=r"could not all be copied .*disk is full"):
        set_name(old_file, "n", force=True)


def test_a_writer_appending_without_end_to_the_replaced_file_is_not_waited_for_ever(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate_file, "HOLDER_WAIT_SECONDS", 0.3)
    held: list[Any] = []
    written = [0]

    def busy_holder(info: os.stat_result) -> str:
        written[0] += 1
        held[0].write(_injected(f"busy-{written[0]}"))
        held[0].flush()
        return "pid 43 (pi)"

    def inject(name: str) -> None:
        if name == "renaming":
            held.append(old_file.open("ab"))
        elif name == "renamed":
            monkeypatch.setattr(migrate_file, "process_writing", busy_holder)

    monkeypatch.setattr(migrate_file, "checkpoint", inject)
    try:
        with pytest.raises(PituiError, match=r"pid 43 \(pi\) still has the old file open"):
            set_name(old_file, "n", force=True)
    finally:
        held[0].close()


def test_a_file_another_program_renames_into_place_meanwhile_is_given_back(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program replaces the file whole (write a copy, rename it over) after pitui's
    last check and just before pitui's own rename: its file stays, pitui's is dropped."""
    theirs = _injected("their-file")
    replaced: list[os.stat_result] = []

    def replace_it(name: str) -> None:
        if name == "renaming":
            copy = old_file.with_name("theirs.tmp")
            copy.write_bytes(theirs)
            os.rename(copy, old_file)
            replaced.append(os.stat(old_file))

    monkeypatch.setattr(migrate_file, "checkpoint", replace_it)
    with pytest.raises(PituiError, match=r"replaced by another program .* nothing was changed"):
        set_name(old_file, "n", force=True)
    assert old_file.read_bytes() == theirs
    assert os.stat(old_file).st_ino == replaced[0].st_ino
    assert sorted(p.name for p in old_file.parent.iterdir()) == ["old.jsonl"]


def test_where_names_cannot_be_exchanged_a_rename_migrates(
    old_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids_before = [e.id for e in Session(old_file).tree.entries]
    monkeypatch.setattr(migrate_file, "exchange", lambda first, second: False)
    set_name(old_file, "n", force=True)
    _check_migrated(old_file, ids_before, [])
