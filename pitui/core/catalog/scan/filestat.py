"""What a listing learns of a file from `stat` alone: whether it may be opened, whether the
index already holds its bytes (kept apart from `scanner`, which a warm listing never needs)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitui.core.catalog.index.index import FileRow

_KINDS = (
    (stat.S_ISDIR, "directory"),
    (stat.S_ISFIFO, "FIFO"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)


@dataclass
class FileStat:
    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int = 0


@dataclass(frozen=True)
class Unreadable:
    """A file the listing cannot read: `reason` says why (it is left out, and reported)."""

    path: str
    reason: str
    skipped: bool = False  # not a regular file (never opened), rather than an error

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is never opened (a FIFO blocks, a device never ends)."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "special file")
    return f"not a regular file ({kind})"


def stat_of(path: str, taken: os.stat_result | None = None) -> FileStat | Unreadable | None:
    """The file's stat (symlinks followed, as Pi does), None if gone, or why it is not read;
    `taken`: its stat as the caller took it a moment ago, used instead of a new one."""
    if taken is not None:
        st = taken
    else:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        except OSError as error:
            return Unreadable(path, error.strerror or str(error))
    reason = not_regular(st.st_mode)
    if reason is not None:
        return Unreadable(path, reason, skipped=True)
    return FileStat(st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def unchanged(row: FileRow | None, st: FileStat) -> bool:
    """Same bytes as indexed (the ctime also changes with permissions: chmod 000 is seen)."""
    return (
        row is not None
        and row.size == st.size
        and row.mtime_ns == st.mtime_ns
        and row.inode == st.inode
        and row.ctime_ns == st.ctime_ns
    )
