"""Choosing sessions to clean up, and moving them one by one: to the trash (as Ctrl+D does)
or to the archive.

Criteria are AND-ed; sessions come from the catalog in the scope of `pitui list`. A session
that another program seems to be writing is skipped, never trashed (the caller's check: the
commands take `removal_guard.RemovalGuard`'s, which counts an idle pi in the session's
folder; the write checks of `writer.activity_warning` by default).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pitui.core.catalog.summary import SessionSummary
from pitui.core.changes.freedesktop_trash import FileGone
from pitui.core.changes.writer import activity_warning
from pitui.core.errors import PituiError

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw]?)")
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", re.IGNORECASE)
_SECONDS = {"": 86_400, "s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 7 * 86_400}
_BYTES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_duration(text: str) -> float:
    """Seconds of `30d`, `12h`, `2w`, `90m`, `45s` (a bare number is days)."""
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise PituiError(f"not a duration: {text!r} (e.g. 30d, 12h, 2w)")
    return float(match.group(1)) * _SECONDS[match.group(2)]


def parse_size(text: str) -> int:
    """Bytes of `500K`, `10MB`, `1.5G`, `1GiB`, `2048` (binary units)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise PituiError(f"not a size: {text!r} (e.g. 500K, 10M, 1G)")
    return int(float(match.group(1)) * _BYTES[match.group(2).lower()])


@dataclass
class Criteria:
    empty: bool = False
    older_than: float | None = None  # seconds
    larger_than: int | None = None  # bytes
    cwd_missing: bool = False

    def any(self) -> bool:
        return (
            self.empty
            or self.older_than is not None
            or self.larger_than is not None
            or self.cwd_missing
        )

    def matches(self, summary: SessionSummary, now: float) -> bool:
        if self.empty and summary.message_count != 0:
            return False
        if self.older_than is not None and now - _modified(summary) < self.older_than:
            return False
        if self.larger_than is not None and summary.size <= self.larger_than:
            return False
        return not (self.cwd_missing and not _cwd_missing(summary.cwd))


def _modified(summary: SessionSummary) -> float:
    """Seconds since the epoch of the session's last message (Pi's `modified`), else the
    file's modification time."""
    if summary.modified_ms is not None:
        return summary.modified_ms / 1000
    return summary.mtime_ns / 1e9


def _cwd_missing(cwd: str) -> bool:
    return bool(cwd) and not os.path.isdir(cwd)


def select(
    summaries: Iterable[SessionSummary], criteria: Criteria, now: float | None = None
) -> list[SessionSummary]:
    now = time.time() if now is None else now
    return [s for s in summaries if criteria.matches(s, now)]


@dataclass
class MoveResult:
    moved: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # path, why
    failed: list[tuple[str, str]] = field(default_factory=list)


def move_each(
    paths: list[str],
    move: Callable[[str], object],
    busy: Callable[[str], str | None] = activity_warning,
    progress: Callable[[int, int], None] | None = None,
) -> MoveResult:
    """Move each file (to the trash, to the archive) unless another program seems to be
    writing it (then skip it). A file gone since it was selected (another pitui moved it) is
    skipped, saying so. `progress(done, total)`: after each file."""
    result = MoveResult()
    for done, path in enumerate(paths, 1):
        _move_one(path, move, busy, result)
        if progress is not None:
            progress(done, len(paths))
    return result


def _move_one(
    path: str,
    move: Callable[[str], object],
    busy: Callable[[str], str | None],
    result: MoveResult,
) -> None:
    try:
        warning = busy(path)
        if warning is not None:
            result.skipped.append((path, warning))
            return
        move(path)
    except FileGone as gone:
        result.skipped.append((path, str(gone)))
    except PituiError as error:
        if os.path.lexists(path):
            result.failed.append((path, str(error)))
        else:  # gone before pitui could look at it
            result.skipped.append((path, str(FileGone(path))))
    else:
        result.moved.append(path)
