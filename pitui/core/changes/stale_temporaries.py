"""Removing the temporary files a killed pitui left beside a session it was migrating."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
from pathlib import Path

from pitui.core.changes.write_guard import files_open

STALE_SECONDS = 60.0  # a temporary file this old, open by nobody, was left by a killed pitui
STALE_WITHOUT_PROC_SECONDS = 3600.0  # the same where /proc cannot tell who has it open
TEMPORARY = re.compile(r"^\.(?P<name>.+)\.pitui-[0-9a-f]{8}\.tmp$")


def temporary_name(session_name: str, token: str) -> str:
    """pitui's name for the temporary copy of `session_name` (`token`: 8 hex digits)."""
    return f".{session_name}.pitui-{token}.tmp"


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove the temporary files a killed pitui left in `folder`: pitui's own naming, a
    regular file, older than a minute, open by no process, beside the session it copies."""
    now = time.time()
    candidates: dict[tuple[int, int], Path] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        match = TEMPORARY.match(entry.name)
        if match is None or not (folder / match["name"]).is_file():
            continue
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                candidates[(info.st_dev, info.st_ino)] = Path(entry.path)
    if not candidates:
        return []
    busy = files_open(set(candidates))
    if busy is None:  # no /proc: only the very old ones
        busy = {key for key, p in candidates.items() if not _older(p, STALE_WITHOUT_PROC_SECONDS)}
    removed = [p for key, p in candidates.items() if key not in busy and _unlink(p)]
    return removed


def _older(path: Path, seconds: float) -> bool:
    try:
        return time.time() - os.lstat(path).st_mtime > seconds
    except OSError:
        return False


def _unlink(path: Path) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
