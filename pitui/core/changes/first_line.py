"""The first entry of a session file, as Pi finds it (the first line that parses; blank and
malformed lines skipped): a header, or, in a headerless file, the first entry appended."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.regular_file import NotRegularFile, open_regular

SCAN_BYTES = 1 << 20  # as far as a first entry is looked for (Pi's header scan is shorter)
FIRST_READ = 4096  # a header's line fits: most files take one small read
CHUNK = 1 << 16


def first_entry(path: Path) -> dict[str, Any] | None:
    """The file's first entry (a JSON object), None if it has none or cannot be read."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError, NotRegularFile):
        return None
    try:
        return _first(fd)
    except OSError:
        return None
    finally:
        os.close(fd)


def has_session_header(path: Path) -> bool:
    """Whether the file's first entry is a session header (a file Pi can list)."""
    entry = first_entry(path)
    return entry is not None and entry.get("type") == EntryType.SESSION


def header_cwd(path: Path) -> str | None:
    """The header's cwd of the session at `path` (None: no header, or no cwd in it)."""
    entry = first_entry(path)
    if entry is None or entry.get("type") != EntryType.SESSION:
        return None
    cwd = entry.get("cwd")
    return cwd if isinstance(cwd, str) and cwd else None


def _first(fd: int) -> dict[str, Any] | None:
    pending = b""
    scanned = 0
    while scanned < SCAN_BYTES:
        chunk = os.read(fd, CHUNK if scanned else FIRST_READ)
        if not chunk:
            return _parsed(pending)
        scanned += len(chunk)
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            value = _parsed(line)
            if value is not None:
                return value
    return None


def _parsed(line: bytes) -> dict[str, Any] | None:
    if not line.strip():
        return None
    try:
        value = parse_line(line.rstrip(b"\r"))
    except LineError:
        return None
    return value if isinstance(value, dict) else None
