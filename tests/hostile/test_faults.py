"""Faults seen from the UI (the core parts are in tests/core: test_writer.py, test_watcher.py,
test_live.py, catalog/test_catalog_index.py): a session deleted while open, folders that cannot
be read, a full or read-only disk during a label write, the index locked by another pitui or
left corrupt by a kill, and native file watching failing to start."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from watch_faults import fail_native_watching

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index.index import DB_NAME
from pitui.demo.generate import write_demo_store
from pitui.ui.app import PituiApp, make_app
from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.entry_tree import EntryTree

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_helpers import loaded, plain, settle, started, toasts
from waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
SIZE = (160, 40)
NOW = datetime(2025, 12, 8, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    monkeypatch.delenv("PITUI_PI_COMMAND", raising=False)
    monkeypatch.delenv("PITUI_FORCE_POLLING", raising=False)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The demo store's sessions root; files an hour old (no "pi may be writing" question)."""
    found = write_demo_store(tmp_path / "agent")
    then = time.time() - 3600
    for file in found.rglob("*.jsonl"):
        os.utime(file, (then, then))
    return found


@pytest.fixture
def build(tmp_path: Path, root: Path) -> Callable[..., PituiApp]:
    def make(**overrides: Any) -> PituiApp:
        options: dict[str, Any] = {
            "sessions_root": root,
            "all_scope": True,
            "watch": False,
            "cache_dir": tmp_path / "cache",
            "now": NOW,
            "home": "/home/demo",
            "cwd": "/home/demo/projects/pitui",
        }
        options.update(overrides)
        return make_app(**options)

    return make


def a_session(root: Path) -> Path:
    return sorted(root.rglob("*.jsonl"))[0]


# --------------------------------------------------------------------------- deleted while open


async def test_deleted_while_open_without_watcher_then_label(
    build: Callable[..., PituiApp], root: Path
) -> None:
    """No watcher (`--no-watch`): the next poll finds the file gone; the screen says so and
    keeps the last state; a label write then fails with a message, and creates no file."""
    path = a_session(root)
    app = build(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await loaded(pilot)
        rows = len(screen.query_one(EntryTree).rows)
        path.unlink()
        await asyncio_thread(app.live.poll_once)
        await wait_for(pilot, lambda: screen.gone is not None)
        assert "deleted" in plain(screen.query_one("#session-notice"), 200)
        assert len(screen.query_one(EntryTree).rows) == rows  # the last state stays
        await pilot.press("L", *"x", "enter")
        await wait_for(pilot, lambda: any("does not exist" in m for m in toasts(app)))
        assert not path.exists()
        assert app.is_running and pilot.app.screen is screen


async def asyncio_thread(function: Callable[[], Any]) -> Any:
    import asyncio

    return await asyncio.to_thread(function)


async def test_deleted_before_it_is_read(build: Callable[..., PituiApp], root: Path) -> None:
    """Chosen in the picker, gone before the screen reads it: a notice, not a crash."""
    app = build()
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot, timeout=20)
        target = picker.rows[0].summary.path
        Path(target).unlink()
        await pilot.press("enter")
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.gone is not None)
        assert "cannot open this session" in plain(screen.query_one("#session-notice"), 300)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is picker


# --------------------------------------------------------------------------- unreadable folders


def _deny(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    """As if `denied` had mode 000 (we run as root: chmod would not stop us)."""
    real_listdir, real_scandir = os.listdir, os.scandir

    def check(path: Any) -> None:
        if path is not None and Path(os.fsdecode(path)).absolute() == denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))

    def listdir(path: Any = ".") -> Any:
        check(path)
        return real_listdir(path)

    def scandir(path: Any = ".") -> Any:
        check(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    monkeypatch.setattr(os, "scandir", scandir)


def test_unreadable_project_folder_is_reported_not_fatal(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    denied = folders[0]
    expected = {str(p) for p in root.rglob("*.jsonl") if p.parent != denied}
    _deny(monkeypatch, denied)
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        report = catalog.scan()
        listed = {s.path for s in catalog.sessions()}
    assert listed == expected
    assert len(report.unreadable) == 1
    assert str(denied) in report.unreadable[0] and "Permission denied" in report.unreadable[0]


def test_unreadable_root_is_reported_not_fatal(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _deny(monkeypatch, root)
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        report = catalog.scan()
        assert catalog.sessions() == []
    assert report.unreadable and str(root) in report.unreadable[0]


def test_list_command_says_what_it_could_not_read(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from pitui.cli import main

    denied = sorted(p for p in root.iterdir() if p.is_dir())[0]
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(root.parent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    _deny(monkeypatch, denied)
    assert main(["list", "--all"]) == 0
    captured = capsys.readouterr()
    assert f"pitui: cannot read {denied}: Permission denied" in captured.err
    assert len(captured.out.splitlines()) > 1


async def test_picker_warns_about_an_unreadable_folder(
    build: Callable[..., PituiApp], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    denied = sorted(p for p in root.iterdir() if p.is_dir())[0]
    others = {str(p) for p in root.rglob("*.jsonl") if p.parent != denied}
    _deny(monkeypatch, denied)
    app = build()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot, timeout=20)
        await wait_for(pilot, lambda: {r.summary.path for r in picker.rows} == others)
        assert any("cannot read" in m and "Permission denied" in m for m in toasts(app)), toasts(
            app
        )
        assert app.is_running


# --------------------------------------------------------------------------- disk full / read-only


def _fail_writes_to(monkeypatch: pytest.MonkeyPatch, path: Path, code: int, where: str) -> None:
    """`os.write` (where="write") or `os.open` for writing (where="open") fails with `code`,
    for this file only (the terminal driver and everything else write as usual)."""
    inode = path.stat().st_ino
    if where == "write":
        real_write = os.write

        def write(fd: int, data: Any) -> int:
            try:
                same = os.fstat(fd).st_ino == inode
            except OSError:
                same = False
            if same:
                raise OSError(code, os.strerror(code))
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", write)
    else:
        real_open = os.open

        def open_(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & (os.O_WRONLY | os.O_RDWR) and Path(os.fsdecode(file)) == path:
                raise OSError(code, os.strerror(code), str(file))
            return real_open(file, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", open_)


@pytest.mark.parametrize(
    ("code", "where", "said"),
    [
        (errno.ENOSPC, "write", "the disk is full"),
        (errno.EROFS, "open", "the file system is read-only"),
        (errno.EDQUOT, "write", "quota"),
    ],
)
async def test_label_write_fails_cleanly(
    build: Callable[..., PituiApp],
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
    code: int,
    where: str,
    said: str,
) -> None:
    path = a_session(root)
    before = path.read_bytes()
    app = build(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await loaded(pilot)
        target = screen.query_one(EntryTree).highlighted
        _fail_writes_to(monkeypatch, path, code, where)
        await pilot.press("L", *"keep", "enter")
        await wait_for(pilot, lambda: any(said in m for m in toasts(app)))
        text = next(m for m in toasts(app) if said in m)
        assert "nothing was changed" in text and "Traceback" not in text
        await settle(pilot)
        assert screen.live.session.tree.label_of(target.id) is None
        assert app.is_running and pilot.app.screen is screen
        app.clear_notifications()  # (an error stays over a dialog) naming fails the same way
        await wait_for(pilot, lambda: not toasts(app))
        await pilot.press("ctrl+r", *"n", "enter")
        await wait_for(pilot, lambda: any(said in m for m in toasts(app)))
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- the index


HOLD = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT OR REPLACE INTO meta VALUES('held', 'by another pitui')")
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
db.execute("ROLLBACK")
"""


@pytest.fixture
def locked_index(tmp_path: Path, root: Path) -> Any:
    """A warm index, then another process holding an exclusive transaction on it."""
    cache = tmp_path / "cache"
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(cache / DB_NAME)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    yield cache, holder
    holder.stdin.close()  # type: ignore[union-attr]
    holder.wait(timeout=10)


def test_index_locked_briefly_waits_and_lists(root: Path, locked_index: Any) -> None:
    """Another pitui writing for a moment: this one waits for it, then lists everything from
    the shared index (not a temporary one, and without a notice)."""
    cache, holder = locked_index
    release = threading.Timer(1.0, holder.stdin.close)  # the other pitui's moment ends
    release.start()
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert len(catalog.sessions()) == len(list(root.rglob("*.jsonl")))
        assert catalog.index.notice is None
        assert catalog.index.path == cache / DB_NAME
    release.join()


@pytest.mark.slow
def test_index_locked_for_long_still_lists_and_keeps_the_other_index(
    root: Path, locked_index: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another pitui holding the index for longer than the busy timeout: the listing still
    comes (from a temporary index, with a notice), and the other process's database is not
    deleted from under it."""
    cache, _holder = locked_index
    db_file = cache / DB_NAME
    inode = db_file.stat().st_ino
    started = time.monotonic()
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert len(catalog.sessions()) == len(list(root.rglob("*.jsonl")))
        assert catalog.index.notice and "in use" in catalog.index.notice
    assert time.monotonic() - started < 15  # the busy timeout (5 s), not 30 s
    assert db_file.stat().st_ino == inode  # not thrown away and recreated


@pytest.mark.slow
def test_list_command_with_a_locked_index(
    root: Path, tmp_path: Path, locked_index: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from pitui.cli import main

    cache, _holder = locked_index
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(root.parent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(cache))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    assert main(["list", "--all", "--json"]) == 0
    captured = capsys.readouterr()
    assert "in use by another pitui" in captured.err
    assert len(json.loads(captured.out)) == len(list(root.rglob("*.jsonl")))


@pytest.mark.slow
async def test_picker_says_the_index_is_in_use(
    build: Callable[..., PituiApp], root: Path, locked_index: Any
) -> None:
    app = build()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot, timeout=20)
        assert len(picker.rows) == len(list(root.rglob("*.jsonl")))
        await wait_for(pilot, lambda: any("in use" in m for m in toasts(app)), timeout=2)


def test_index_killed_mid_write_rebuilds_cleanly(root: Path, tmp_path: Path) -> None:
    """A kill while the index was written: a truncated database, a torn WAL. The next start
    rebuilds from the files: the same listing as a fresh index."""
    cache = tmp_path / "cache"
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        fresh = {s.path: s.to_json() for s in catalog.sessions()}
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
    db_file = cache / DB_NAME
    data = db_file.read_bytes()
    for damage in (
        data[: len(data) // 2],  # truncated mid-write
        data[:100] + b"\xff" * 4096 + data[4196:],  # a torn page
        b"",  # created, never written
    ):
        db_file.write_bytes(damage)
        Path(f"{db_file}-wal").write_bytes(b"\x37\x7f\x06\x82" + os.urandom(2000))
        with Catalog(root, cache_dir=cache) as catalog:
            catalog.scan()
            assert {s.path: s.to_json() for s in catalog.sessions()} == fresh
        db = sqlite3.connect(db_file)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()


async def test_picker_lists_after_a_corrupt_index(
    build: Callable[..., PituiApp], root: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / DB_NAME).write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    app = build()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot, timeout=20)
        expected = {str(p) for p in root.rglob("*.jsonl")}
        await wait_for(pilot, lambda: {r.summary.path for r in picker.rows} == expected)
        assert not [m for m in toasts(app) if "Failed" in m]


# --------------------------------------------------------------------------- watching


async def test_polling_fallback_notice_reaches_the_picker(
    build: Callable[..., PituiApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    fail_native_watching(monkeypatch)
    app = build(watch=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot, timeout=20)
        await wait_for(pilot, lambda: any("polling" in m for m in toasts(app)), timeout=10)
        assert sum("polling" in m for m in toasts(app)) == 1


async def test_polling_fallback_notice_reaches_a_session_opened_directly(
    build: Callable[..., PituiApp], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pitui FILE`: no picker; the session screen shows the notice, and live updates still
    arrive (by polling)."""
    fail_native_watching(monkeypatch)
    path = a_session(root)
    app = build(sessions_root=None, session_file=path, watch=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await loaded(pilot)
        await wait_for(pilot, lambda: any("polling" in m for m in toasts(app)), timeout=10)
        assert sum("polling" in m for m in toasts(app)) == 1
        rows = len(screen.query_one(EntryTree).rows)
        leaf = screen.live.session.tree.leaf
        entry = {
            "type": "message",
            "id": "feedf00d",
            "parentId": leaf.id,
            "timestamp": "2025-12-08T11:00:00.000Z",
            "message": {"role": "user", "content": "polled"},
        }
        line = json.dumps(entry) + "\n"
        with path.open("a") as handle:
            handle.write(line)
        await wait_for(pilot, lambda: len(screen.query_one(EntryTree).rows) > rows, timeout=20)
