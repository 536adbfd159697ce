"""The JSON of many entries, in their order, without keeping every line in memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import read_lines

CHUNK = 2048


def entry_raws(entries: list[Entry], chunk: int = CHUNK) -> Iterator[tuple[Entry, dict[str, Any]]]:
    """Each entry with its JSON object, in the order given. Lines not in memory are read a
    chunk at a time, in few large reads, and are not kept: a 100k-entry branch is never all
    in memory as parsed JSON."""
    for start in range(0, len(entries), chunk):
        part = entries[start : start + chunk]
        unread = [e for e in part if not e.raw_loaded and e.source is not None]
        lines = dict(read_lines(unread))  # an entry hashes as itself
        for entry in part:
            line = lines.get(entry)
            yield entry, entry.raw if line is None else entry.raw_of_line(line)
