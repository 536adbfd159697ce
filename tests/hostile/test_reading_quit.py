"""The quit key exits at once even while a worker is stuck reading (a file that never ends,
a dead network disk): the app runs in a child process, which must end within the timeout,
without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from reading_runner import TIMEOUT

from pitui.ui import executor
from pitui.ui.executor import DaemonExecutor

STAMP = "2026-01-01T00:00:00.000Z"

# Every screen's first read blocks for ever; once a worker is inside, the user presses the
# key. One child runs each case in turn (a stuck thread of the last case stays behind, and
# the process must still end).
CHILD = """
import json, sys, threading
from pitui.core.catalog.catalog import Catalog
from pitui.core.live.hub import SessionHub
from pitui.ui import executor
from pitui.ui.app import make_app

executor.GRACE_SECONDS = 0.2
inside = threading.Event()

def stuck(*args, **kwargs):
    inside.set()
    threading.Event().wait()

SessionHub.open = stuck
Catalog.scan = stuck

for where, path, key in json.loads(sys.argv[1]):
    inside.clear()

    async def user(pilot):
        for _ in range(500):
            if inside.is_set():
                break
            await pilot.pause(0.01)
        assert inside.is_set(), "the worker never started"
        await pilot.press(key)

    if where == "session":
        app = make_app(session_file=path, watch=False)
    else:
        app = make_app(sessions_root=path, watch=False, no_cache=True, all_scope=True)
    app.run(headless=True, size=(80, 24), auto_pilot=user)
    print("returned", where, key, file=sys.stderr)
"""


def test_quit_keys_exit_while_a_worker_is_stuck(tmp_path: Path) -> None:
    path = tmp_path / "--w--" / "s.jsonl"
    path.parent.mkdir()
    header = {"type": "session", "version": 3, "id": "s", "timestamp": STAMP, "cwd": "/w"}
    path.write_text(json.dumps(header) + "\n")
    cases = [
        ["session", str(path), "ctrl+q"],
        ["session", str(path), "escape"],
        ["picker", str(tmp_path), "ctrl+q"],
    ]
    args = [sys.executable, "-c", CHILD, json.dumps(cases)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [f"returned {where} {key}" for where, _, key in cases]


def test_shutdown_lets_a_quick_task_finish_and_leaves_a_stuck_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(executor, "GRACE_SECONDS", 0.3)
    pool = DaemonExecutor()
    release, started = threading.Event(), threading.Event()

    def quick() -> str:
        started.wait()
        return "done"

    stuck = pool.submit(release.wait)
    done = pool.submit(quick)
    started.set()
    try:
        pool.shutdown(wait=True)  # returns after the grace, with `stuck` still running
        assert done.result(timeout=0) == "done"
        assert stuck.running()
        with pytest.raises(RuntimeError):
            pool.submit(quick)
    finally:
        release.set()
    assert stuck.result(timeout=5) is True


def test_task_errors_reach_the_future() -> None:
    pool = DaemonExecutor()
    future = pool.submit(int, "not a number")
    with pytest.raises(ValueError):
        future.result(timeout=5)
    pool.shutdown()
