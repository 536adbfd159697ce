"""Migrating a v1/v2 session file on disk, as Pi does when it loads one, losing no line.

Pi rewrites an old file whole when it loads it; pitui does the same before it appends a label
or a name. Pi has no lock, so another process may append at any moment:
- pitui refuses while another process holds the file open for writing, even when forced (that
  process would keep writing to the replaced file);
- the migrated snapshot goes to a temporary file beside the original and is renamed over it,
  while pitui keeps the original open;
- after the rename, whatever the original gained past the snapshot (appended before or during
  the rename by a writer that opens the file for each line, as Pi does) is appended to the new
  file, until nobody holds the original open and it stops growing.
Two pitui processes migrating the same file take turns (`flock` on the original).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pitui.core.changes.exchange import exchange
from pitui.core.changes.file_messages import os_message, shown
from pitui.core.changes.file_writes import sync_folder, write_all
from pitui.core.changes.migrated_lines import migrated_values
from pitui.core.changes.stale_temporaries import temporary_name
from pitui.core.changes.write_guard import process_writing
from pitui.core.errors import PituiError
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.regular_file import NotRegularFile, open_regular
from pitui.core.session.session import Session

POLL_SECONDS = 0.05
LOCK_WAIT_SECONDS = 30.0  # how long to wait for another pitui migrating the same file
WRITER_GRACE_SECONDS = 0.5  # how long to wait for a writer to close the file before refusing
HOLDER_WAIT_SECONDS = 3.0  # how long after the rename a writer may still use the old file
QUIET_POLLS = 2  # checks in a row finding nobody holding the replaced file, before stopping


def checkpoint(step: str) -> None:
    """Called between the steps of a migration (tests inject other writers' appends here)."""


def migrate_on_disk(session: Session, encode_line: Callable[[Any], bytes]) -> None:
    """Rewrite `session`'s v1/v2 file as Pi's migration would; `session` is refreshed after.

    `encode_line(value)` gives the bytes of one line (`JSON.stringify(value) + "\\n"`).
    Lines another writer appends meanwhile are all kept (after the migrated ones).
    """
    path = session.path
    original = _open_regular(path)
    try:
        _lock(original, path)
        checkpoint("locked")
        info = os.fstat(original)
        if _is_current_file(path, info):
            session.refresh()  # the same file as `original`: the reader follows the path
            if _is_current_file(path, info) and session.version < CURRENT_VERSION:
                _migrate_locked(session, original, info, encode_line)
    finally:
        os.close(original)  # also releases the lock
    checkpoint("carried")
    session.refresh()  # replaced: by our migration, or by another pitui's meanwhile


def _migrate_locked(
    session: Session, original: int, info: os.stat_result, encode_line: Callable[[Any], bytes]
) -> None:
    path = session.path
    _refuse_if_written(path, info)
    size = session.reader.offset
    data = os.pread(original, size, 0)
    if len(data) != size:
        raise PituiError(f"{shown(path.name)} shrank while being read: nothing was changed")
    checkpoint("snapshot")
    content = b"".join(encode_line(value) for value in migrated_values(session, data))
    target = _replace(path, info, content)
    try:
        checkpoint("renamed")
        _carry_over(original, info, path, target, size, data[: data.find(b"\n") + 1])
    finally:
        os.close(target)
    sync_folder(path.parent)


# --------------------------------------------------------------------------- steps


def _open_regular(path: Path) -> int:
    try:
        return open_regular(path)
    except NotRegularFile:
        raise PituiError(f"{shown(path)} is not a regular file: nothing was changed") from None
    except OSError as error:
        raise PituiError(os_message("cannot read", path, error)) from None


def _lock(fd: int, path: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise PituiError(
                    f"another pitui is migrating {shown(path.name)}: nothing was changed; "
                    "try again in a moment"
                ) from None
            time.sleep(POLL_SECONDS)
        except OSError:
            return  # a file system without flock: pitui processes do not take turns there


def _is_current_file(path: Path, info: os.stat_result) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino)


def _refuse_if_written(path: Path, info: os.stat_result) -> None:
    """Never migrate while another process holds the file open for writing, even forced:
    what it writes after the rename would go to the replaced file and be lost. A writer that
    opens the file for each line (as Pi does) holds it only for moments: wait for one."""
    deadline = time.monotonic() + WRITER_GRACE_SECONDS
    while (writer := process_writing(info)) is not None:
        if time.monotonic() >= deadline:
            raise PituiError(
                f"{shown(path.name)} is open for writing by {writer}, and this old-format file "
                "must be rewritten (migrated) first: pitui will not do that while another "
                "process can write to it, even when forced; nothing was changed"
            )
        time.sleep(POLL_SECONDS)


def _replace(path: Path, before: os.stat_result, content: bytes) -> int:
    """Write `content` to a temporary file beside `path` and rename it over `path`; returns
    the descriptor that wrote it (appending: after the rename, to the new file)."""
    temporary = path.with_name(temporary_name(path.name, secrets.token_hex(4)))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC
    try:
        fd = os.open(temporary, flags, 0o600)
    except OSError as error:
        raise PituiError(
            os_message("cannot write a temporary file in", path.parent, error)
        ) from None
    try:
        _keep_owner_and_mode(fd, before)
        write_all(fd, content, path)
        os.fsync(fd)
        checkpoint("written")
        _refuse_if_written(path, before)  # again, as close to the rename as can be
        if not _is_current_file(path, before):
            raise PituiError(
                f"{shown(path.name)} was replaced while pitui was migrating it: nothing was "
                "changed; try again"
            )
        checkpoint("renaming")
        _put_in_place(temporary, path, before)
    except BaseException as error:
        _remove_if_ours(temporary, fd)
        os.close(fd)
        if isinstance(error, OSError):
            raise PituiError(os_message("cannot replace", path, error)) from None
        raise
    return fd


def _put_in_place(temporary: Path, path: Path, before: os.stat_result) -> None:
    """Put the migrated file in `path`'s place. Where the two names can be exchanged, the
    file displaced is checked: one that another program renamed into place since pitui's
    last check is given back (else a rename would have dropped it)."""
    if not exchange(temporary, path):
        os.rename(temporary, path)  # no exchange here: the check just before is all there is
        return
    displaced = os.lstat(temporary)
    if (displaced.st_dev, displaced.st_ino) == (before.st_dev, before.st_ino):
        _remove(temporary)  # the original's last name (`original` still reads it)
        return
    if not exchange(temporary, path):
        raise PituiError(
            f"{shown(path.name)} was replaced by another program while pitui was migrating it, "
            f"and its file could not be put back: it is {shown(temporary)}"
        )
    raise PituiError(
        f"{shown(path.name)} was replaced by another program while pitui was migrating it: "
        "its file was left in place and nothing was changed; try again"
    )


def _carry_over(
    original: int, info: os.stat_result, path: Path, target: int, start: int, header: bytes
) -> None:
    """Append to the new file (`target`) what the replaced one gained past `start`, complete
    lines only, until nobody holds the replaced file open for writing and it stops growing."""
    carried = start
    quiet = 0
    deadline = time.monotonic() + HOLDER_WAIT_SECONDS
    try:
        while True:
            size = os.fstat(original).st_size
            if size < carried or os.pread(original, len(header), 0) != header:
                raise PituiError(_rewritten_message(path))
            gained = os.pread(original, size - carried, carried) if size > carried else b""
            complete = gained[: gained.rfind(b"\n") + 1]
            if complete:
                write_all(target, complete, path)
                carried += len(complete)
            writer = process_writing(info)
            quiet = 0 if writer or complete else quiet + 1
            if quiet >= QUIET_POLLS:
                if len(gained) > len(complete):  # a writer left an unfinished line: end it
                    write_all(target, gained[len(complete) :] + b"\n", path)
                return
            if quiet == 0 and time.monotonic() >= deadline:
                raise PituiError(_still_held_message(path, writer or "another process"))
            time.sleep(POLL_SECONDS)
    except PituiError as error:
        if carried < os.fstat(original).st_size:
            raise PituiError(_not_carried_message(path, error)) from None
        raise


def _not_carried_message(path: Path, error: PituiError) -> str:
    return (
        f"{shown(path.name)} was migrated, but lines another program appended meanwhile "
        f"could not all be copied into it ({error}); pitui's label or name was not added"
    )


def _rewritten_message(path: Path) -> str:
    return (
        f"{shown(path.name)} was rewritten by another program while pitui migrated it: "
        "pitui's label or name was not added; check the session before trying again"
    )


def _still_held_message(path: Path, writer: str) -> str:
    return (
        f"{shown(path.name)} was migrated, but {writer} still has the old file open for "
        "writing: what it writes from now on will not reach the session; pitui's label or "
        "name was not added"
    )


def _keep_owner_and_mode(fd: int, before: os.stat_result) -> None:
    if (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # not allowed: the rewritten file becomes ours
            os.fchown(fd, before.st_uid, before.st_gid)
    os.fchmod(fd, stat.S_IMODE(before.st_mode))


def _remove_if_ours(temporary: Path, fd: int) -> None:
    """Remove `temporary` only while it is still the file pitui wrote (`fd`), never a file
    another program's exchange left under that name."""
    with contextlib.suppress(OSError):
        if os.path.samestat(os.lstat(temporary), os.fstat(fd)):
            os.unlink(temporary)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
