"""Where a tool call's `path` points: Pi 1.6.0's `resolveToCwd` (`tools/path-utils.js`,
`utils/paths.js`), on POSIX paths."""

from __future__ import annotations

import os
import posixpath
import re
from urllib.parse import unquote, urlsplit

_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")


def _normalize(path: str, *, tool_path: bool) -> str:
    """Pi's normalizePath: Unicode spaces as spaces and a leading `@` dropped (for a tool's
    path), `~` expanded, a `file://` URL read as its path."""
    if tool_path:
        path = _UNICODE_SPACES.sub(" ", path)
        if path.startswith("@"):
            path = path[1:]
    if path == "~":
        return os.path.expanduser("~")
    if path.startswith("~/"):
        return posixpath.join(os.path.expanduser("~"), path[2:])
    if path.startswith("file://"):
        return unquote(urlsplit(path).path)
    return path


def _resolve(path: str) -> str:
    """Node's path.resolve of an absolute path: `.` and `..` worked out, repeated and
    trailing slashes dropped (posixpath keeps a leading `//`, Node does not)."""
    resolved = posixpath.normpath(path)
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def resolve_to_cwd(path: str, cwd: str) -> str | None:
    """The absolute path Pi's tool wrote to for `path` in a session run in `cwd`; None for a
    relative path when the session's cwd is not absolute (Pi would have used a folder the
    session does not record)."""
    normalized = _normalize(path, tool_path=True)
    if posixpath.isabs(normalized):
        return _resolve(normalized)
    base = _normalize(cwd, tool_path=False)
    if not posixpath.isabs(base):
        return None
    return _resolve(posixpath.join(base, normalized))


def is_within(folder: str, path: str) -> bool:
    """`path` is `folder` itself or inside it (both absolute and resolved)."""
    if path == folder:
        return True
    return path.startswith(folder if folder.endswith("/") else folder + "/")
