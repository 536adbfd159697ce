"""Reading lines back from the file they were read from, by byte range.

Entries keep only their byte range; their JSON is read again when first shown. The source
holds a read-only descriptor, so it keeps reading the same inode even after the path is
replaced (Pi's migration renames a new file into place): entries never mix two versions of
a file. The descriptor closes when no entry or reader uses the source any more.
"""

from __future__ import annotations

import errno
import os
import stat
import weakref
from typing import BinaryIO

from pitui.core.errors import PituiError

_FIRST_READ = 8192  # most lines are shorter; a longer one is read again, twice as far
# O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused right after anyway).
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | os.O_NOCTTY
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFile(PituiError):
    """A session path that names a FIFO, a device, a directory or a socket."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        super().__init__(f"{os.fspath(path)} is not a regular file ({file_kind(mode)})")
        self.mode = mode


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages ("a FIFO")."""
    return next((name for test, name in _KINDS if test(mode)), "not a file")


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether `path` (symlinks followed) is a regular file; False when it cannot be seen."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor on `path`, which must be a regular file.

    Checked before opening (a device or FIFO is never opened), opened without blocking (a
    file swapped for a FIFO meanwhile cannot hang), and checked again on the descriptor.
    Raises `NotRegularFile`, or `OSError` when the file cannot be read.
    """
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, mode)
    fd = os.open(path, _READ_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular_file(path: str | os.PathLike[str]) -> BinaryIO:
    """`open_regular` as a binary file object (closing it closes the descriptor)."""
    return os.fdopen(open_regular(path), "rb")


def read_regular(path: str | os.PathLike[str], offset: int = 0) -> bytes:
    """The bytes of a regular file from `offset` to its end. Raises `NotRegularFile`, or
    `OSError` when it cannot be read, ENOMEM when it is too large to hold in memory (a
    file of zeros that fills a disk): a one-line reason, never a traceback."""
    with open_regular_file(path) as fh:
        fh.seek(offset)
        try:
            return fh.read()
        except MemoryError:
            reason = "too large to read into memory"
            raise OSError(errno.ENOMEM, reason, os.fspath(path)) from None


def read_small(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file that is small by nature (pitui's config files, a trash
    entry's `.trashinfo`): a FIFO in its place is refused, never waited on, and a device
    never read (`NotRegularFile`); one of more than `limit` bytes raises `OSError` (EFBIG),
    so a file that only grows is never read without end."""
    with open_regular_file(path) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
    return data


class LineSource:
    """A read-only descriptor on one inode of a session file."""

    __slots__ = ("__weakref__", "_fd", "inode")

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._fd = open_regular(path)
        try:
            self.inode = os.fstat(self._fd).st_ino
        except OSError:
            os.close(self._fd)
            raise
        weakref.finalize(self, os.close, self._fd)

    def read(self, start: int, size: int) -> bytes:
        """Up to `size` bytes from `start` (fewer at the end of the file)."""
        return os.pread(self._fd, size, start)

    def read_into(self, buffer: bytearray, start: int) -> int:
        """Fill `buffer` from `start`; returns how many bytes were read."""
        return os.preadv(self._fd, [buffer], start)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def stat(self) -> os.stat_result:
        return os.fstat(self._fd)

    def read_line(self, start: int) -> bytes:
        """The line that starts at `start`, without its newline (to the end of the file if
        it has none)."""
        size = _FIRST_READ
        while True:
            data = self.read(start, size)
            end = data.find(b"\n")
            if end != -1:
                return data[:end]
            if len(data) < size:
                return data
            size *= 2
