"""pitui killed (SIGKILL) in the middle of a migration leaves its temporary copy beside the
session; the next write removes it, once it is stale and nobody has it open. The session
itself is never touched by the kill."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pitui.core.catalog.scan.discovery import Listing, jsonl_files
from pitui.core.changes import stale_temporaries, write_guard
from pitui.core.changes.stale_temporaries import remove_stale_temporaries, temporary_name
from pitui.core.changes.writer import set_name
from pitui.demo.generate import generate_v1_session, write_session

OLD = 1_600_000_000
HAS_PROC = Path("/proc/self/fdinfo").is_dir()
KILLED_MID_MIGRATION = r"""
import sys, time
from pitui.core.changes import migrate_file
from pitui.core.changes.writer import set_name
def stall(step):
    if step == "written":
        print("stalled", flush=True)
        time.sleep(60)
migrate_file.checkpoint = stall
set_name(sys.argv[1], "never", force=True)
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(write_guard, "_own_writes", {})


@pytest.fixture
def v1(tmp_path: Path) -> Path:
    header, entries = generate_v1_session(random.Random(3))
    path = write_session(tmp_path / "s.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    return path


def _temporaries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".pitui-" in p.name)


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_killed_migration_leaves_a_temporary_the_next_write_removes(v1: Path) -> None:
    before = v1.read_bytes()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_MID_MIGRATION, str(v1)], stdout=subprocess.PIPE, env=env
    )
    assert proc.stdout is not None and proc.stdout.readline() == b"stalled\n"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert v1.read_bytes() == before
    [left] = _temporaries(v1.parent)
    listing = Listing()
    jsonl_files(str(v1.parent), listing)
    assert listing.files == [str(v1)]  # not listed as a session meanwhile
    set_name(v1, "fresh one kept", force=True)  # less than a minute old: may be in use
    assert _temporaries(v1.parent) == [left]
    _age(left, 120)
    set_name(v1, "stale one removed", force=True)
    assert _temporaries(v1.parent) == []


def _make(folder: Path, name: str, age: float = 120) -> Path:
    path = folder / name
    path.write_bytes(b'{"type":"session"}\n')
    _age(path, age)
    return path


def test_only_stale_temporaries_of_pitui_naming_are_removed(v1: Path) -> None:
    folder = v1.parent
    stale = _make(folder, temporary_name(v1.name, "0123abcd"))
    fresh = _make(folder, temporary_name(v1.name, "89abcdef"), age=5)
    orphan = _make(folder, temporary_name("gone.jsonl", "0123abcd"))  # its session is gone
    other = [
        _make(folder, f".{v1.name}.pitui-XYZ.tmp"),
        _make(folder, f"{v1.name}.pitui-0123abcd.tmp"),
        _make(folder, f".{v1.name}.other-0123abcd.tmp"),
    ]
    link = folder / temporary_name(v1.name, "aaaabbbb")
    link.symlink_to(v1)
    _age(link, 120)
    assert remove_stale_temporaries(folder) == [stale]
    assert not stale.exists() and v1.exists()
    assert all(p.exists() for p in [fresh, orphan, *other]) and link.is_symlink()


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")
def test_a_temporary_open_in_some_process_is_kept(v1: Path) -> None:
    held = _make(v1.parent, temporary_name(v1.name, "0123abcd"))
    code = "import sys,time; f=open(sys.argv[1],'rb'); print('ready',flush=True); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", code, str(held)], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        assert remove_stale_temporaries(v1.parent) == []
        assert held.exists()
    finally:
        proc.kill()
        proc.wait()
    assert remove_stale_temporaries(v1.parent) == [held]


def test_without_proc_only_very_old_temporaries_go(
    v1: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stale_temporaries, "files_open", lambda keys: None)
    minutes = _make(v1.parent, temporary_name(v1.name, "0123abcd"), age=600)
    hours = _make(v1.parent, temporary_name(v1.name, "89abcdef"), age=7200)
    assert remove_stale_temporaries(v1.parent) == [hours]
    assert minutes.exists()
