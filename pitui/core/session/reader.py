"""Incremental reading of a session file: complete lines, by byte offset.

A last line without its newline is read as an entry when it is a whole JSON object (as Pi's
loader reads it); it stays marked unterminated, so that nothing is ever appended onto it,
and a later refresh neither repeats it (the writer adds the newline) nor keeps it once the
writer extended it (the file is then read again whole).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, cannot_be_json, parse_line
from pitui.core.format.jsvalues import js_truthy
from pitui.core.format.migration import NEWER_HARNESS, Migrator, is_harness_header
from pitui.core.regular_file import NotRegularFile
from pitui.core.session.entry import DecodeErrors, Diagnostic, Entry, decode_entry
from pitui.core.session.source import LineSource
from pitui.core.size_text import human_size

CHUNK_SIZE = 16 * 1024 * 1024
TAIL_CHECK = 64
Progress = Callable[[int, int], None]  # (bytes read, bytes to read)
# Hears each entry decoded on the fast path with its line's bytes, valid during the call only:
# what else a caller needs of every line is taken from it then, not read again later.
LineHook = Callable[[Entry, memoryview], None]
# Decodes one line into an entry (an `Entry`, or a subclass keeping more of the line for a
# hook that reads it while the line is still in memory); raises one of `DecodeErrors` for
# a line that must be parsed whole.
LineDecoder = Callable[[memoryview], Entry]
_SPACE = frozenset(b" \t\r\x0b\x0c")
_CLOSE = ord("}")


class NotASession(PituiError):
    """The file is not a Pi session (no header first), or cannot be read."""


class NewerFormat(NotASession):
    """The file is in a session format newer than any pitui reads (Pi's harness format)."""


@dataclass(slots=True)
class ReadBatch:
    """What one read produced. `reset` means: forget earlier batches, this is the whole file."""

    entries: list[Entry] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    reset: bool = False
    links: BatchLinks = field(default_factory=lambda: BatchLinks())


@dataclass(slots=True)
class BatchLinks:
    """What decoding learnt for the tree, while each entry was still in the CPU's cache:
    fast-path entries by id, and those whose parent is not an earlier entry of the batch.
    It covers the whole batch only if it holds as many ids as the batch has entries."""

    by_id: dict[str | None, Entry] = field(default_factory=dict)
    unlinked: list[Entry] = field(default_factory=list)
    # Indices of the entries whose parent is not named as the entry just before them: the
    # rest form runs of a chain, which a path walk copies a run at a time.
    starts: list[int] = field(default_factory=list)
    non_messages: list[Entry] = field(default_factory=list)  # the few entries to look at


NO_ID = object()  # the id "before" a batch's first entry: no parentId equals it


@dataclass(slots=True)
class _Line:
    number: int
    offset: int
    data: bytes | bytearray | memoryview


class SessionReader:
    """Reads a session file's complete lines; `refresh()` reads only what was appended."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        on_line: LineHook | None = None,
        decode: LineDecoder = decode_entry,
    ) -> None:
        self.path = Path(path)
        self.on_line = on_line
        self.decode = decode
        self._start_again()

    def _start_again(self) -> None:
        """Nothing read yet (at first, and when `read()` reads the file again)."""
        self.header: dict[str, Any] | None = None
        self.header_line = 0  # 1-based, once the header is read
        self.offset = 0  # just after the last complete line consumed
        self.partial_bytes = 0  # bytes of a last line not yet ended by "\n" (not read)
        self.unterminated = False  # the last line read as an entry has no "\n" yet
        self._line_number = 0
        self._parsed_count = 0
        self._entry_count = 0
        self._source: LineSource | None = None
        self._header_span: tuple[int, int] = (0, 0)
        self._header_digest = b""  # of the header line: a huge one is not kept twice
        self._tail_bytes = b""
        # (size, mtime_ns, ctime_ns) as the last read began: the same size with another
        # mtime or ctime is an edit in place, never an append (the mtime may be set back)
        self._stamp: tuple[int, int, int] | None = None
        self._migrator: Migrator | None = None

    def read(self, progress: Progress | None = None) -> ReadBatch:
        """Read the whole file from the start."""
        self._start_again()
        batch = self._read_new(progress)
        batch.reset = True
        return batch

    def refresh(self, progress: Progress | None = None) -> ReadBatch:
        """Read lines appended since the last read; reload whole if the file was replaced.
        `progress(done, total)` hears after every chunk (16 MB) read."""
        if self.header is None or self._must_reload():
            return self.read(progress)
        return self._read_new(progress)

    def _must_reload(self) -> bool:
        try:
            stat = os.stat(self.path)
        except OSError as error:
            raise NotASession(_os_reason(error)) from None
        source = self._source
        if source is None or stat.st_ino != source.inode or stat.st_size < self.offset:
            return True
        if self._edited(stat):
            return True
        start, end = self._header_span
        if _digest(source.read(start, end - start)) != self._header_digest:
            return True
        tail = len(self._tail_bytes)
        return source.read(self.offset - tail, tail) != self._tail_bytes

    def _edited(self, stat: os.stat_result) -> bool:
        """The same size as when the last read began, another mtime or ctime: not an append."""
        if self._stamp is None or stat.st_size != self._stamp[0]:
            return False
        return (stat.st_mtime_ns, stat.st_ctime_ns) != self._stamp[1:]

    def _glued(self, source: LineSource) -> bool:
        """Whether the unterminated line read as an entry has been extended (the writer was
        not done, or another line was glued onto it): it must be read again."""
        if not self.unterminated:
            return False
        after = source.read(self.offset, 1)
        if after == b"\n":  # completed: the entry stands, its newline is consumed
            self.offset += 1
            self.unterminated = False
            self._tail_bytes = (self._tail_bytes + after)[-TAIL_CHECK:]
            return False
        return after != b""

    def _read_new(self, progress: Progress | None) -> ReadBatch:
        batch = ReadBatch()
        try:
            if self._source is None:
                self._source = LineSource(self.path)
            if self._glued(self._source):
                return self.read(progress)
            self._read_chunks(self._source, batch, progress)
        except OSError as error:
            raise NotASession(_os_reason(error)) from None
        except NotRegularFile as error:
            raise NotASession(str(error)) from None
        if self.header is None:
            raise NotASession(self._no_header_reason())
        return batch

    def _read_chunks(self, source: LineSource, batch: ReadBatch, progress: Progress | None) -> None:
        """Everything after `self.offset`, a chunk at a time into one buffer (memory stays
        one chunk, or what is left to read when less: a refresh reads a line or two, not a
        zeroed 16 MB). Each chunk starts at the first unconsumed byte, so a line cut by a
        chunk's end is read again whole rather than glued together; a line longer than a
        chunk takes a larger buffer (twice, at most to the end of the file), allocated once
        the smaller one is freed: memory holds one copy of the line. One byte more than the
        file holds makes its last read short, which is how the end is seen."""
        stat = source.stat()
        total = stat.st_size
        self._stamp = (total, stat.st_mtime_ns, stat.st_ctime_ns)
        buffer = bytearray(max(1, min(CHUNK_SIZE, total - self.offset + 1)))
        while True:
            got = source.read_into(buffer, self.offset)
            consumed = self._take_buffer(buffer, got, source, batch)
            if progress:
                progress(self.offset, max(total, self.offset))
            if got < len(buffer):
                self.partial_bytes = got - consumed
                if self.partial_bytes:
                    self._take_unterminated(buffer, consumed, got, batch)
                return
            if consumed == 0 and cannot_be_json(buffer):  # never held whole
                if not self._skip_line(source, buffer, got, batch):
                    self.partial_bytes = source.size() - self.offset
                    return
            elif consumed == 0:  # no newline yet
                size = min(len(buffer) * 2, source.size() - self.offset + 1)
                del buffer
                buffer = bytearray(max(size, got + 1))
            elif len(buffer) < CHUNK_SIZE:  # the file grew while it was being read
                del buffer  # sized to what it holds now: a line or two when Pi is writing
                buffer = bytearray(max(1, min(CHUNK_SIZE, source.size() - self.offset + 1)))

    def _skip_line(self, source: LineSource, buffer: bytearray, got: int, batch: ReadBatch) -> bool:
        """Pass over a line longer than `buffer` (its first `got` bytes) that cannot be JSON,
        reading on a buffer at a time, as a malformed line (Pi skips it too). False when it
        has no newline yet (it is left unread, as a line being written)."""
        start, at = self.offset, self.offset + got
        while True:
            read = source.read_into(buffer, at)
            end = buffer.find(b"\n", 0, read)
            if end != -1:
                break
            if read < len(buffer):
                return False
            at += read
        end += at
        self._line_number += 1
        reason = f"not JSON (a line of {human_size(end - start)}, not read)"
        batch.diagnostics.append(Diagnostic(self._line_number, start, reason))
        self.offset = end + 1
        kept = min(TAIL_CHECK, self.offset)
        self._tail_bytes = source.read(self.offset - kept, kept)
        return True

    def _take_unterminated(self, data: bytearray, start: int, limit: int, batch: ReadBatch) -> None:
        """Read the last line, which has no newline, if it is a whole JSON object."""
        end = limit
        while end > start and data[end - 1] in _SPACE:
            end -= 1
        if end == start or data[end - 1] != _CLOSE:
            return  # only an object can be whole (a number could still grow): not yet
        view = memoryview(data)[start:limit]
        try:
            value = parse_line(view)
        except LineError:
            return  # still being written (or not JSON): read once it ends
        if not isinstance(value, dict):
            return
        self._line_number += 1
        line = _Line(self._line_number, self.offset, view)
        self._take_parsed_value(value, line, batch)
        self.offset += limit - start
        self.partial_bytes = 0
        self.unterminated = True
        self._tail_bytes = bytes(data[max(0, limit - TAIL_CHECK) : limit])

    def _take_buffer(
        self, data: bytearray, limit: int, source: LineSource, batch: ReadBatch
    ) -> int:
        """Consume the complete lines of `data[:limit]` (bytes from `self.offset`); returns
        how many bytes were consumed.

        Lines of a current-format file take the fast path (decoded straight into entries
        that read their JSON again on use); anything else is parsed whole, one line at a
        time, which also says what is wrong with a bad line.
        """
        view, start = memoryview(data), 0
        while (end := data.find(b"\n", start, limit)) != -1:
            if self._migrator is not None and not self._migrator.needed:
                start = self._take_fast_lines(data, limit, view, start, source, batch)
                if (end := data.find(b"\n", start, limit)) == -1:
                    break
            self._line_number += 1
            if end > start and (data[start] not in _SPACE or not data[start:end].isspace()):
                line = _Line(self._line_number, self.offset + start, view[start:end])
                self._take_parsed_line(line, batch)
            start = end + 1
        self.offset += start
        if start:
            # The end of what was consumed: if these bytes change, the file was rewritten.
            self._tail_bytes = bytes(data[max(0, start - TAIL_CHECK) : start])
        return start

    def _take_fast_lines(
        self,
        data: bytearray,
        limit: int,
        view: memoryview,
        start: int,
        source: LineSource,
        batch: ReadBatch,
    ) -> int:
        """Decode lines from `start` as long as each is a plain entry; returns where the
        first line that is not (or the incomplete end) starts. The hot loop of loading."""
        find, base, append = data.find, self.offset, batch.entries.append
        links = batch.links
        by_id, unlinked, starts, non_messages = (
            links.by_id,
            links.unlinked,
            links.starts,
            links.non_messages,
        )
        line_number, index, previous = self._line_number, self._entry_count, NO_ID
        on_line, decode = self.on_line, self.decode
        message_type, header_type = EntryType.MESSAGE, EntryType.SESSION  # bound: per line
        while (end := find(b"\n", start, limit)) != -1:
            line = view[start:end]
            try:
                entry = decode(line)
            except DecodeErrors:
                break
            if entry.type != message_type:
                if entry.type == header_type:
                    break
                non_messages.append(entry)
            line_number += 1
            entry.line = line_number
            raw_id = entry.raw_id
            entry.id = raw_id if raw_id is not None else f"line:{line_number}"
            entry.offset = base + start
            entry.index = index
            entry.source = source
            index += 1
            append(entry)
            if (parent_id := entry.parent_id) != previous:  # as links_of() in the tree
                starts.append(entry.index)
                if parent_id not in by_id:
                    unlinked.append(entry)
            previous = raw_id
            by_id[previous] = entry
            if on_line is not None:
                on_line(entry, line)
            start = end + 1
        self._parsed_count += index - self._entry_count
        self._line_number, self._entry_count = line_number, index
        return start

    def _take_parsed_line(self, line: _Line, batch: ReadBatch) -> None:
        try:
            value = parse_line(line.data)
        except LineError as error:
            batch.diagnostics.append(Diagnostic(line.number, line.offset, str(error)))
            return
        self._take_parsed_value(value, line, batch)

    def _take_parsed_value(self, value: Any, line: _Line, batch: ReadBatch) -> None:
        if self.header is None and not js_truthy(value):
            return  # Pi's loadEntriesFromFile keeps only truthy values: `null`, `0` are skipped
        self._parsed_count += 1
        if self.header is None:
            self._take_header(value, line)
        elif not isinstance(value, dict):
            reason = "line is not a JSON object"
            batch.diagnostics.append(Diagnostic(line.number, line.offset, reason))
        elif value.get("type") == EntryType.SESSION:
            reason = "extra session header ignored"
            batch.diagnostics.append(Diagnostic(line.number, line.offset, reason))
        else:
            batch.entries.append(self._make_entry(value, line, batch))

    def _take_header(self, value: Any, line: _Line) -> None:
        if is_harness_header(value):
            raise NewerFormat(f"line {line.number} is {NEWER_HARNESS}")
        if not (isinstance(value, dict) and value.get("type") == EntryType.SESSION):
            raise NotASession(
                f"line {line.number} is not a session header: the file is not a session"
            )
        if not isinstance(value.get("id"), str):
            raise NotASession(f"the session header on line {line.number} has no string id")
        self.header = value
        self.header_line = line.number
        self._header_span = (line.offset, line.offset + len(line.data))
        self._header_digest = _digest(line.data)
        self._migrator = Migrator(value)

    def _make_entry(self, raw: dict[str, Any], line: _Line, batch: ReadBatch) -> Entry:
        assert self._migrator is not None
        problem = self._migrator.migrate(raw, self._parsed_count - 1)
        if problem:
            batch.diagnostics.append(Diagnostic(line.number, line.offset, problem))
        self._entry_count += 1
        return Entry.from_raw(raw, line.number, line.offset, self._entry_count - 1)

    def _no_header_reason(self) -> str:
        if self.offset == 0 and self.partial_bytes == 0:
            return "the file is empty"
        if self.offset == 0:
            size = human_size(self.partial_bytes)
            return (
                f"the first line is incomplete or too long ({size} without a newline): "
                "no session header found"
            )
        return "no session header found: the file is not a session"

    @property
    def lines_read(self) -> int:
        """Complete lines read so far (a last line without a newline is not one)."""
        return self._line_number

    @property
    def version(self) -> int:
        return self._migrator.source_version if self._migrator else 0


def _digest(data: bytes | bytearray | memoryview) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _os_reason(error: OSError) -> str:
    return f"cannot read {error.filename or 'file'}: {error.strerror or error}"
