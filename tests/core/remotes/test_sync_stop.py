"""The app quitting ends a sync under way: rsync and its ssh with it (re-parented, they went
on writing the mirror, unseen)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from pitui.core.remotes.config import Remote
from pitui.core.remotes.sync import SyncResult, stop_syncs, sync_remote


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone, its parent not yet told
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def never_answering_ssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`PITUI_SSH_COMMAND` set to an ssh that never answers; the file it writes its pid to."""
    pid_file = tmp_path / "ssh.pid"
    ssh = tmp_path / "slow-ssh"
    ssh.write_text(f"#!/bin/sh\necho $$ > '{pid_file}'\nexec sleep 300\n")
    ssh.chmod(0o755)
    monkeypatch.setenv("PITUI_SSH_COMMAND", str(ssh))
    return pid_file


def test_stop_syncs_ends_rsync_and_its_ssh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    pid_file = never_answering_ssh(tmp_path, monkeypatch)
    results: list[SyncResult] = []
    said: list[int] = []
    worker = threading.Thread(
        target=lambda: results.append(
            sync_remote(Remote("box", "me@example.org"), lambda done, _: said.append(done))
        ),
        daemon=True,
    )
    worker.start()
    deadline = time.monotonic() + 30
    while not (said and pid_file.exists() and pid_file.read_text().strip()):  # connecting
        assert time.monotonic() < deadline and worker.is_alive()
        time.sleep(0.05)
    ssh_pid = int(pid_file.read_text())
    assert alive(ssh_pid)
    stop_syncs()
    worker.join(30)
    assert not worker.is_alive()
    [result] = results
    assert result.error == "stopped (pitui quit)"
    deadline = time.monotonic() + 10
    while alive(ssh_pid):
        assert time.monotonic() < deadline, "ssh outlived the sync"
        time.sleep(0.05)
