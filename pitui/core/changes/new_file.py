"""A new session file: Pi's ids and names, Pi's path resolution, written complete or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import secrets
from collections.abc import Iterable
from pathlib import Path

from pitui.core.errors import PituiError


def js_resolve(path: str) -> str:
    """Pi's resolvePath: `~` expanded, `file://` URLs read, made absolute and normalised."""
    from urllib.parse import unquote, urlparse

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
        raise PituiError(f"cannot create {folder}: {error.strerror or error}") from None
    target = folder / name
    temporary = folder / f".{name}.pitui-{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise PituiError(f"cannot write in {folder}: {error.strerror or error}") from None
    try:
        try:
            _write(fd, content)
            os.fsync(fd)
        finally:
            os.close(fd)
        _move_into_place(temporary, target)
    except OSError as error:
        raise PituiError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return target


def _write(fd: int, content: Iterable[bytes]) -> None:
    with os.fdopen(os.dup(fd), "wb", buffering=1 << 20) as handle:
        for chunk in content:
            handle.write(chunk)


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
