"""Moving a session file to the system trash (freedesktop trash on Linux), never deleting it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pitui.core.changes.file_messages import shown
from pitui.core.changes.freedesktop_trash import FileGone
from pitui.core.changes.move_file import check_regular_file
from pitui.core.changes.removal_guard import RemovalGuard
from pitui.core.changes.write_guard import ConcurrentWriteWarning
from pitui.core.errors import PituiError

if sys.platform in ("darwin", "win32", "cygwin"):
    from send2trash import send2trash
else:  # the freedesktop trash, moved into without leaving a half-done entry
    from pitui.core.changes.freedesktop_trash import send2trash


def trash_session(path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Move `path` to the trash; if the trash cannot take it, raise and leave the file as is.
    Unless `force`, refused (`ConcurrentWriteWarning`) while pi may be writing it or be in it
    (`RemovalGuard`).

    There is no fallback to a permanent delete (Pi falls back to unlink; pitui does not).
    """
    path = Path(path).absolute()
    check_regular_file(path, "trash")
    warning = None if force else RemovalGuard().warning(path)
    if warning is not None:
        raise ConcurrentWriteWarning(warning)
    try:
        send2trash(str(path))
    except FileGone:
        raise
    except Exception as error:  # send2trash raises OSError and its own errors
        raise PituiError(
            f"cannot move {shown(path)} to the trash: {shown(_reason(error))}; the file was kept"
        ) from None
    if os.path.lexists(path):
        raise PituiError(f"the trash did not take {shown(path)}; the file was kept")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
