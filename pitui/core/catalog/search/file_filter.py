"""The picker's `file:PATH`: the sessions with a successful write or edit call of PATH (a
folder: of anything under it), answered by the index (`Index.sessions_writing`, filled by
the tool pass), never by reading the sessions. PATH is absolute, or relative to the folder
the picker was started in; a symbolic link matches where it leads too."""

from __future__ import annotations

import os
import posixpath


def file_targets(value: str, here: str) -> tuple[str, ...]:
    """The absolute forms of `value` typed in folder `here`: as written and, when a
    symbolic link leads elsewhere, where it leads (as `pitui log FILE` takes it)."""
    written = posixpath.normpath(posixpath.join(here, os.path.expanduser(value)))
    if written.startswith("//"):  # as Pi's paths resolve (Node's path.resolve)
        written = "/" + written.lstrip("/")
    real = os.path.realpath(written)
    return (written,) if real == written else (written, real)
