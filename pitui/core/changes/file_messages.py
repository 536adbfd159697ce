"""Messages about session files, with every file name and path made inert for a terminal."""

from __future__ import annotations

import errno
import os

from pitui.core.rows.safe_text import inert_path

_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.ENOENT: "it does not exist",
}


def shown(value: str | os.PathLike[str]) -> str:
    """A path, file name or session string as a message may print it (controls visible)."""
    return inert_path(os.fspath(value))


def os_reason(error: OSError) -> str:
    return _REASONS.get(error.errno or 0) or error.strerror or str(error)


def os_message(what: str, path: str | os.PathLike[str], error: OSError) -> str:
    return f"{what} {shown(path)}: {os_reason(error)}; nothing was changed"


def no_entry(entry_id: str, path: str | os.PathLike[str]) -> str:
    """What every command says of an entry id the session does not hold."""
    return f"no entry with id {shown(repr(entry_id))} in {shown(path)}"
