"""Low-level writes: whole data or nothing at the end of a file (on a line of its own, if
asked), and a folder's fsync."""

from __future__ import annotations

import os
from pathlib import Path

from pitui.core.changes.file_messages import os_message, os_reason, shown
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular


def write_all(fd: int, data: bytes, path: Path) -> os.stat_result | None:
    """Write `data` at the end; undo a partial write if nothing followed it. Returns the
    file's state just after, if nothing else was appended since the write began (the file
    grew by `data` exactly), else None."""
    start = os.fstat(fd).st_size
    written = 0
    try:
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError as error:
        if written:
            _undo_partial(fd, start, written)
        raise PituiError(os_message("cannot write", path, error)) from None
    after = os.fstat(fd)
    return after if after.st_size == start + len(data) else None


def _undo_partial(fd: int, start: int, written: int) -> None:
    """Remove our partial line, but only if it is still the end of the file."""
    try:
        if os.fstat(fd).st_size == start + written:
            os.ftruncate(fd, start)
    except OSError:
        pass


def sync_folder(folder: Path) -> None:
    _sync_quietly(folder, os.O_DIRECTORY)


def _sync_quietly(path: Path, flags: int) -> None:
    """fsync `path` (opened read-only with `flags`), as a best effort: errors pass."""
    try:
        fd = os.open(path, os.O_RDONLY | flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def append_whole(into: Path, data: bytes, *, sync: bool = True) -> os.stat_result | None:
    """`data` at the end of `into`, on a line of its own, as one write (a writer appending
    to `into` meanwhile keeps its lines whole). Returns the file's state just after, if
    nothing else was appended meanwhile (`write_all`), else None."""
    if not data:
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    try:
        fd = os.open(into, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise PituiError(f"cannot append to {shown(into)}: {os_reason(error)}") from None
    try:
        if not _ends_a_line(into):
            data = b"\n" + data
        after = write_all(fd, data, into)
        if sync:
            os.fsync(fd)
        return after
    finally:
        os.close(fd)


def _ends_a_line(path: Path) -> bool:
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        return size == 0 or os.pread(fd, 1, size - 1) == b"\n"
    finally:
        os.close(fd)


def sync_file(path: Path) -> None:
    _sync_quietly(path, getattr(os, "O_NOFOLLOW", 0))
