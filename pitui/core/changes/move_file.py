"""Moving a session file to a new name, never over a file, the same bytes at the end.

On one file system a rename (Linux's `renameat2(RENAME_NOREPLACE)`; elsewhere a hard link
then unlink, or a rename after checking the name is free). Across file systems (EXDEV) a
copy: written to a temporary file beside the target, fsynced, linked into place (never over
a file), compared with the source byte for byte, and only then is the source unlinked. A
source that changed during the copy (another program appended to it) stays where it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path

from pitui.core.changes.exchange import rename_no_replace
from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.changes.file_writes import sync_folder
from pitui.core.changes.new_file import write_whole
from pitui.core.errors import PituiError
from pitui.core.session.source import open_regular

CHUNK = 1 << 20
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK)


class TargetExists(PituiError):
    """A file is already where the session would go: nothing was moved."""


def move_file(source: Path, target: Path) -> None:
    """Move `source` to `target` (its folder made if need be). Raises `TargetExists` or a
    `PituiError` saying why; on any failure the source is where it was."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        rename_never_over(source, target)
    except FileExistsError:
        raise TargetExists(
            f"{shown(target)} exists: {shown(source)} was left where it is"
        ) from None
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise PituiError(_cannot(source, target, error)) from None
        _copy_across(source, target)
    sync_folder(target.parent)
    sync_folder(source.parent)


def rename_never_over(source: Path, target: Path) -> None:
    if rename_no_replace(source, target):
        return
    try:
        os.link(source, target)  # fails if the target exists
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "file exists", str(target)) from None
        os.rename(source, target)
        return
    try:
        os.unlink(source)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise


def _copy_across(source: Path, target: Path) -> None:
    try:
        before = os.stat(source)
        write_whole([target], _chunks(source))
    except FileExistsError:
        raise TargetExists(
            f"{shown(target)} exists: {shown(source)} was left where it is"
        ) from None
    except OSError as error:
        raise PituiError(_cannot(source, target, error)) from None
    try:
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        same = _same_bytes(source, target) and _unchanged(source, before)
    except OSError as error:
        _remove_copy(target)
        raise PituiError(_cannot(source, target, error)) from None
    if not same:
        _remove_copy(target)
        raise PituiError(f"{shown(source)} changed while it was copied: it was left where it is")
    try:
        os.unlink(source)
    except OSError as error:
        _remove_copy(target)
        raise PituiError(_cannot(source, target, error)) from None


def _chunks(path: Path) -> Iterator[bytes]:
    with os.fdopen(open_regular(path), "rb") as fh:
        while chunk := fh.read(CHUNK):
            yield chunk


def _same_bytes(first: Path, second: Path) -> bool:
    """Whether the two files hold the same bytes (the copy read back from the disk's cache:
    the comparison catches a short or mangled copy, the fsync made it durable)."""
    with os.fdopen(open_regular(first), "rb") as a, os.fdopen(open_regular(second), "rb") as b:
        while True:
            left, right = a.read(CHUNK), b.read(CHUNK)
            if left != right:
                return False
            if not left:
                return True


def _unchanged(path: Path, before: os.stat_result) -> bool:
    now = os.stat(path)
    return (now.st_ino, now.st_size, now.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


def _remove_copy(target: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(target)


def _cannot(source: Path, target: Path, error: OSError) -> str:
    reason = os_reason(error)
    return f"cannot move {shown(source)} to {shown(target)}: {reason}; it was left where it is"
