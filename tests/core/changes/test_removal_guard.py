"""The rule of `RemovalGuard`: with a pi running in a session's folder, the sessions of that
folder changed since it started, and the newest, may be the one it is in; the others not."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pitui.core.changes.removal_guard import RemovalGuard
from pitui.core.live.pi_processes import PiProcess

OLD = 1_600_000_000


def session(folder: Path, name: str, cwd: Path, mtime: float) -> Path:
    path = folder / f"{name}.jsonl"
    header = {"type": "session", "version": 3, "id": name, "timestamp": "t", "cwd": str(cwd)}
    path.write_text(json.dumps(header) + "\n")
    os.utime(path, (mtime, mtime))
    return path


def test_changed_since_the_pi_started_or_newest(tmp_path: Path) -> None:
    project, other = tmp_path / "project", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    folder = tmp_path / "sessions"
    folder.mkdir()
    old = session(folder, "old", project, OLD)
    since = session(folder, "since", project, OLD + 60)
    newest = session(folder, "newest", project, OLD + 70)
    elsewhere = session(folder, "elsewhere", other, OLD + 80)  # a shared custom dir
    guard = RemovalGuard([PiProcess(7, "pi", str(project), OLD + 50)])
    assert guard.warning(old) is None
    assert "pi (pid 7)" in (guard.warning(since) or "")
    assert "pi (pid 7)" in (guard.warning(newest) or "")
    assert guard.warning(elsewhere) is None
    assert guard.newest(folder, str(project)) == str(newest)


def test_a_pi_whose_start_is_unknown_may_write_any_of_its_folder(tmp_path: Path) -> None:
    folder = tmp_path
    old = session(folder, "old", tmp_path, OLD)
    session(folder, "newest", tmp_path, OLD + 70)
    assert RemovalGuard([PiProcess(7, "pi", str(tmp_path), None)]).warning(old) is not None


def test_no_pi_in_the_folder(tmp_path: Path) -> None:
    path = session(tmp_path, "s", tmp_path / "gone", OLD)
    assert RemovalGuard([PiProcess(7, "pi", str(tmp_path), OLD - 10)]).warning(path) is None
    assert RemovalGuard([]).warning(path) is None


def test_a_pi_in_another_named_folder_counts_when_asked(tmp_path: Path) -> None:
    path = session(tmp_path, "s", tmp_path / "old-name", OLD)
    guard = RemovalGuard([PiProcess(7, "pi", str(tmp_path / "new-name"), OLD - 10)])
    assert guard.warning(path) is None
    assert guard.warning(path, also_cwds=(str(tmp_path / "new-name"),)) is not None
