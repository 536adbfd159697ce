"""Moving a session file to a new name, never over a file, the same bytes at the end.

On one file system a rename (Linux's `renameat2(RENAME_NOREPLACE)`; elsewhere a hard link
then unlink, or a rename after checking the name is free). Across file systems (EXDEV) a
copy: written to a temporary file beside the target, fsynced, linked into place (never over
a file), compared with the source byte for byte; a source replaced or rewritten meanwhile
stays where it was. Then the source is renamed aside in its own folder and read to its end
once no writer holds it (what was appended since the copy began goes to the copy too), and
only then unlinked: no line is lost in between.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from pitui.core.changes.exchange import rename_no_replace
from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.changes.file_writes import append_whole, sync_folder
from pitui.core.changes.new_file import write_whole
from pitui.core.changes.writers_gone import wait_for_writers
from pitui.core.errors import PituiError
from pitui.core.regular_file import file_kind, open_regular

CHUNK = 1 << 20
TAKEN_MARK = ".pitui-taken-"  # a file set aside (not `stale_temporaries` naming: never removed)
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK)


class TargetExists(PituiError):
    """A file is already where the session would go: nothing was moved."""


def check_regular_file(path: Path, action: str) -> None:
    """Refuse to `action` ("trash", "archive", "move") a path that is not itself a regular
    file: a PituiError of one line. A symbolic link is refused too (a session kept elsewhere
    and linked in, as Pi lists it): moved, a relative one would point nowhere and the
    session leave Pi's list, pitui's and its archive; its target is left alone as well."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:
        raise PituiError(f"cannot {action} {shown(path)}: {os_reason(error)}") from None
    if stat.S_ISLNK(mode):
        raise PituiError(f"cannot {action} {shown(path)}: not a regular file (a symbolic link)")
    if not stat.S_ISREG(mode):
        raise PituiError(f"cannot {action} {shown(path)}: not a regular file ({file_kind(mode)})")


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
    """The copy, compared; then the source renamed aside in its own folder, so that a line
    appended by its path from then on makes a new file there (a continuation, see
    `continuation`), and what was appended to it between the compare and the rename, or by
    a writer that had it open, is appended to the copy before the source is removed."""
    try:
        fd = open_regular(source)
    except OSError as error:
        raise PituiError(_cannot(source, target, error)) from None
    try:
        _copy_held(fd, source, target)
    finally:
        os.close(fd)


def _copy_held(fd: int, source: Path, target: Path) -> None:
    try:
        before = os.fstat(fd)
        write_whole([target], _chunks(fd, before.st_size))
    except FileExistsError:
        raise TargetExists(
            f"{shown(target)} exists: {shown(source)} was left where it is"
        ) from None
    except OSError as error:
        raise PituiError(_cannot(source, target, error)) from None
    try:
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        same = _same_bytes(fd, target, before.st_size) and _only_appended(source, before)
    except OSError as error:
        _remove_copy(target)
        raise PituiError(_cannot(source, target, error)) from None
    if not same:
        _remove_copy(target)
        raise PituiError(f"{shown(source)} changed while it was copied: it was left where it is")
    aside = source.with_name(f".{source.name}{TAKEN_MARK}{secrets.token_hex(4)}")
    try:
        rename_never_over(source, aside)
    except OSError as error:
        _remove_copy(target)
        raise PituiError(_cannot(source, target, error)) from None
    writer = wait_for_writers(fd)
    try:
        if writer is not None:
            raise PituiError(f"{writer.describe()} holds it open")
        _append_the_rest(fd, before.st_size, target)
    except (OSError, PituiError) as error:
        why = os_reason(error) if isinstance(error, OSError) else str(error)
        raise PituiError(
            f"{shown(source)} was copied to {shown(target)}, but {why}: the original is kept "
            f"as {shown(aside)}"
        ) from None
    with contextlib.suppress(OSError):
        os.unlink(aside)


def _append_the_rest(fd: int, copied: int, target: Path) -> None:
    """Lines appended to the source after the copy (between the compare and the rename, or
    by a writer that had it open), appended to the copy."""
    rest = b"".join(_chunks(fd, os.fstat(fd).st_size, start=copied))
    if rest:
        append_whole(target, rest)


def _chunks(fd: int, end: int, start: int = 0) -> Iterator[bytes]:
    offset = start
    while offset < end:
        chunk = os.pread(fd, min(CHUNK, end - offset), offset)
        if not chunk:
            return
        offset += len(chunk)
        yield chunk


def _same_bytes(fd: int, copy: Path, size: int) -> bool:
    """Whether the copy holds the source's first `size` bytes, and no more (read back from
    the disk's cache: the comparison catches a short or mangled copy, the fsync made it
    durable)."""
    with os.fdopen(open_regular(copy), "rb") as theirs:
        for mine in _chunks(fd, size):
            if theirs.read(len(mine)) != mine:
                return False
        return not theirs.read(1)


def _only_appended(path: Path, before: os.stat_result) -> bool:
    """The path still names the file copied, no shorter (lines appended since are taken
    after the rename; bytes rewritten in place fail the comparison)."""
    now = os.stat(path)
    return (now.st_dev, now.st_ino) == (before.st_dev, before.st_ino) and (
        now.st_size >= before.st_size
    )


def _remove_copy(target: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(target)


def _cannot(source: Path, target: Path, error: OSError) -> str:
    reason = os_reason(error)
    return f"cannot move {shown(source)} to {shown(target)}: {reason}; it was left where it is"
