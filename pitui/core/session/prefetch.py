"""Reading the lines of many entries again at once, in few large reads.

Entries keep only where their line starts. Showing a context or a whole tree needs
thousands of them: reading each alone costs a system call per entry, so nearby lines are
read together, in file order, a window at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter

from pitui.core.session.entry import Entry
from pitui.core.session.line_facts import line_has_text
from pitui.core.session.source import LineSource

WINDOW = 16 * 1024 * 1024  # at most this much read at once
GAP = 256 * 1024  # lines closer than this are read in the same window
_SLACK = 64 * 1024  # read past the last line's start to reach its end
_OFFSET = attrgetter("offset")


def prefetch_raw(entries: Iterable[Entry]) -> None:
    """Parse the lines of `entries` whose JSON is not in memory yet."""
    for entry, line in read_lines(e for e in entries if not e.raw_loaded):
        entry.set_raw_line(line)


def prefetch_text_flags(entries: Iterable[Entry]) -> None:
    """Work out, for every assistant entry, whether its message has text."""
    for entry, line in read_lines(e for e in entries if not e.text_known and not e.raw_loaded):
        flag = line_has_text(line, entry.raw_id)
        if flag is None:
            entry.set_raw_line(line)  # an unusual shape: the full parse decides
        else:
            entry.set_text_flag(flag)


def each_line(entries: Iterable[Entry]) -> Iterator[tuple[Entry, bytes | None]]:
    """Each entry with its line read again, or with None when its JSON is in memory."""
    unread = []
    for entry in entries:
        if entry.raw_loaded or entry.source is None:
            yield entry, None
        else:
            unread.append(entry)
    yield from read_lines(unread)


def read_lines(entries: Iterable[Entry]) -> Iterator[tuple[Entry, bytes]]:
    """Each entry with its line (entries read from a file), read again from its source, in
    file order per source."""
    by_source: dict[LineSource, list[Entry]] = {}
    for entry in entries:
        if entry.source is not None:
            by_source.setdefault(entry.source, []).append(entry)
    for source, group in by_source.items():
        group.sort(key=_OFFSET)
        for run in _runs(group):
            yield from _read_run(source, run)


def _runs(group: list[Entry]) -> Iterator[list[Entry]]:
    """Consecutive entries close enough to share one read."""
    run = [group[0]]
    for entry in group[1:]:
        first, last = run[0].offset, run[-1].offset
        if entry.offset - last <= GAP and entry.offset - first < WINDOW:
            run.append(entry)
        else:
            yield run
            run = [entry]
    yield run


def _read_run(source: LineSource, run: list[Entry]) -> Iterator[tuple[Entry, bytes]]:
    start = run[0].offset
    try:
        data = source.read(start, run[-1].offset - start + _SLACK)
    except OSError:
        data = b""
    for entry in run:
        relative = entry.offset - start
        end = data.find(b"\n", relative)
        if end != -1:
            yield entry, data[relative:end]
        else:
            try:
                yield entry, source.read_line(entry.offset)
            except OSError:
                yield entry, b""
