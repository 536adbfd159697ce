"""The last entries of a session file, read from its end alone: what a large session can show
in a moment, while the whole file loads."""

from __future__ import annotations

import os
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.regular_file import open_regular
from pitui.core.session.entry import Entry

TAIL_BYTES = 512 * 1024  # read at most this much from the end


def tail_entries(
    path: str | os.PathLike[str], limit: int = 200
) -> list[tuple[Entry, dict[str, Any]]]:
    """Up to `limit` of the last complete entries (with their JSON), in file order.

    Only complete lines are taken: the first line of the window (cut by the window) and a last
    line without its newline are left out. Lines that are not JSON objects are skipped, as is
    the header. Line numbers are unknown here: entries count from the window's start."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        start = max(0, size - TAIL_BYTES)
        data = os.pread(fd, size - start, start)
    finally:
        os.close(fd)
    lines = data.split(b"\n")[:-1]  # what follows the last newline is not complete
    if start > 0 and lines:
        lines = lines[1:]  # the window began inside this line
    found: list[tuple[Entry, dict[str, Any]]] = []
    for index, line in enumerate(lines[-limit:]):
        try:
            raw = parse_line(line)
        except LineError:
            continue
        if isinstance(raw, dict) and raw.get("type") != EntryType.SESSION:
            found.append((Entry.from_raw(raw, line=0, offset=0, index=index), raw))
    return found
