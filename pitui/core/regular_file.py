"""Opening only regular files: a FIFO, a device, a directory or a socket in a file's place is
never opened for reading (a FIFO would wait for a writer, a device never end), whether it is
a session, a config file, a trash entry or a cache."""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

from pitui.core.errors import PituiError

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
    """A path that names a FIFO, a device, a directory or a socket."""

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
