"""Quitting the app during a sync of a remote ends rsync and its ssh: re-parented, they went
on writing the mirror for minutes, unseen, and a relaunch started a second rsync into it."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import plain
from waiting import wait_for

from pitui.commands.app import _mirrors
from pitui.core.remotes.config import Remote, add_remote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "remotes"))
from test_sync_stop import alive, never_answering_ssh


async def test_quitting_during_a_sync_ends_it(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    pid_file = never_answering_ssh(tmp_path, monkeypatch)
    add_remote(Remote("box", "me@example.org"))  # as `pitui remote add`, which would reach it
    app = app_factory(cache_dir=tmp_path / "cache", mirrors=_mirrors())
    async with app.run_test(size=(120, 30)) as pilot:
        picker = app.screen
        await wait_for(pilot, lambda: picker.scanned, timeout=10)
        await pilot.press("f5")
        status = picker.query_one("#picker-status")
        await wait_for(pilot, lambda: "syncing box" in plain(status, 200), timeout=10)
        await wait_for(pilot, lambda: pid_file.exists() and pid_file.read_text().strip())
        ssh_pid = int(pid_file.read_text())
        assert alive(ssh_pid)
        await pilot.press("ctrl+q")
    deadline = time.monotonic() + 10
    while alive(ssh_pid):
        assert time.monotonic() < deadline, "the sync outlived the app"
        time.sleep(0.05)
