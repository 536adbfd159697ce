"""A new session file: Pi's ids and names, Pi's path resolution, written complete or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import secrets
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

from pitui.core.changes.file_messages import os_message, os_reason, shown
from pitui.core.changes.stale_temporaries import temporary_name
from pitui.core.errors import PituiError

NAME_MAX = 255  # bytes in a file name on Linux's usual file systems


def js_resolve(path: str) -> str:
    """Pi's resolvePath: `~` expanded, `file://` URLs read, made absolute and normalised."""
    home = os.path.expanduser("~")
    if path == "~":
        path = home
    elif path.startswith("~/"):
        path = posixpath.join(home, path[2:])
    elif path.startswith("file://"):
        path = unquote(urlparse(path).path)
    resolved = posixpath.normpath(posixpath.join(os.getcwd(), path))
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def write_new_file(folder: Path, name: str, content: Iterable[bytes]) -> Path:
    """Write the chunks of `content` as `folder/name`, complete or not at all, never over an
    existing file."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PituiError(f"cannot create {shown(folder)}: {os_reason(error)}") from None
    try:
        return write_whole([folder / name], content)
    except FileExistsError:
        raise PituiError(f"cannot write {shown(folder / name)}: it exists") from None


def write_whole(
    targets: Sequence[Path], content: Iterable[bytes], *, replace: bool = False
) -> Path:
    """Write `content` to a temporary file beside `targets` (all in one folder), then put it
    in place only when it is complete: as the first target whose name is free (never over a
    file; `FileExistsError` when none is), or with `replace` renamed over the first. Any other
    failure is a `PituiError`, and leaves no file behind."""
    first = targets[0]
    temporary = _temporary(first)
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise PituiError(os_message("cannot write in", first.parent, error)) from None
    target = first
    try:
        try:
            _write(fd, content)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(temporary, first)
            return first
        for target in targets:
            with contextlib.suppress(FileExistsError):
                _move_into_place(temporary, target)
                return target
        raise FileExistsError(errno.EEXIST, "file exists", str(first))
    except FileExistsError:
        raise
    except OSError as error:
        raise PituiError(os_message("cannot write", target, error)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _temporary(target: Path) -> Path:
    """pitui's temporary name beside `target`, or a short one where that name is too long."""
    token = secrets.token_hex(4)
    name = temporary_name(target.name, token)
    if len(os.fsencode(name)) > NAME_MAX:
        name = f".pitui-{token}.tmp"
    return target.parent / name


def _write(fd: int, content: Iterable[bytes], buffer: int = 1 << 20) -> None:
    """Every chunk, in writes of about `buffer` bytes."""
    pending: list[bytes] = []
    size = 0
    for chunk in content:
        pending.append(chunk)
        size += len(chunk)
        if size >= buffer:
            _write_all(fd, b"".join(pending))
            pending, size = [], 0
    _write_all(fd, b"".join(pending))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _move_into_place(temporary: Path, target: Path) -> None:
    """Link `temporary` as `target`, failing if `target` exists (a rename where the file
    system has no hard links, after checking the name is free)."""
    try:
        os.link(temporary, target)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "file exists") from None
        os.rename(temporary, target)
