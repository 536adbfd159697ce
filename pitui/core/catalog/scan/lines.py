"""Complete lines of a byte range, in memory bounded by a constant plus the longest line.

Lines come in runs of about `CHUNK` bytes. A line longer than that is never assembled from
pieces (which would hold it twice, or copy it again for every piece): its end is found
first, reading on in constant memory, then it is read in one piece; or not at all, when
its first bytes show that it cannot be JSON (a file of zeros left by a crash): a stand-in
takes its place, read as the same malformed, non-blank line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO

from pitui.core.format.jsonline import cannot_be_json

CHUNK = 4 * 1024 * 1024
# What a long line that cannot be JSON is given as. Only one without a CR: readline (as Pi
# lists sessions) also ends a line at a lone CR, and what follows one could be JSON.
NOT_JSON = b"\x00"


def _size(fh: BinaryIO) -> int | None:
    """The file's size now (None: not a file on disk)."""
    try:
        return os.fstat(fh.fileno()).st_size
    except (OSError, ValueError):  # io.UnsupportedOperation (an in-memory file) is both
        return None


class LineReader:
    """Iterate `(data, end)`: `data` is one or more complete lines joined by `\\n` (without
    the last newline), `end` the offset just after that newline. After the iteration,
    `offset` is the end of the last complete line and `tail` the bytes after it (a last line
    without newline; empty when `stop` is given: a range ends after a newline), `end` the
    offset after them (`tail` may be `NOT_JSON` standing for many more bytes).

    Read on from where a read ended (`start` past 0, no `stop`: a session being written, at
    each change), it asks for the bytes the file holds and one more, not CHUNK: `read(n)`
    allocates n bytes before it reads, and 4 MB asked for to read a few KB, four times a
    second, was most of what the app allocated while pi wrote (see PERFORMANCE.md). A whole
    file is read by CHUNK: asked for exactly, glibc gave each read fresh pages (mmap), and
    reading 1,000 files of about 200 KB took 1.6-2.2 times as long."""

    def __init__(self, fh: BinaryIO, start: int, stop: int | None = None) -> None:
        self.fh, self.start, self.stop = fh, start, stop
        self.offset = start
        self.tail = b""
        self._tail_size = 0
        self._appended = start > 0 and stop is None

    @property
    def end(self) -> int:
        return self.offset + max(len(self.tail), self._tail_size)

    def _read(self, pos: int) -> bytes:
        size = CHUNK if self.stop is None else min(CHUNK, self.stop - pos)
        if self._appended and (now := _size(self.fh)) is not None:
            size = min(CHUNK, max(now - pos, 0) + 1)  # a byte more: it may have grown since
        return self.fh.read(size) if size > 0 else b""

    def __iter__(self) -> Iterator[tuple[bytes, int]]:
        fh = self.fh
        fh.seek(self.start)
        pos, carry = self.start, b""
        while True:
            block = self._read(pos)
            if not block:
                break
            pos += len(block)
            newline = block.rfind(b"\n")
            if newline < 0 and len(carry) + len(block) > CHUNK:
                head = carry + block if carry else block
                junk = cannot_be_json(head) and b"\r" not in head
                carry = block = head = b""  # not held while the line is
                line = self._long_line(pos, junk)
                if line is None:
                    return
                yield line
                pos, carry = self.offset, b""
                continue
            if newline < 0:
                carry += block
                continue
            data = carry + block if carry else block
            cut = len(data) - len(block) + newline
            self.offset += cut + 1
            yield data[:cut], self.offset
            carry = data[cut + 1 :]
        self.tail = carry

    def _long_line(self, pos: int, junk: bool) -> tuple[bytes, int] | None:
        """The line starting at `offset`, read in one piece once its end is found (`junk`:
        `NOT_JSON` instead, if no CR is found on the way); None (and `tail` set) when it has
        no newline."""
        fh, begin = self.fh, self.offset
        end = None
        while end is None:
            block = self._read(pos)
            if not block:
                break
            found = block.find(b"\n")
            if found >= 0:
                end = pos + found
            if junk and b"\r" in (block if found < 0 else block[:found]):
                junk = False
            pos += len(block)
        if end is None and junk:
            self.tail, self._tail_size = NOT_JSON, pos - begin
            return None
        if junk and end is not None:
            self.offset = end + 1
            fh.seek(self.offset)
            return NOT_JSON, self.offset
        fh.seek(begin)
        if end is None:
            self.tail = fh.read(pos - begin)
            return None
        line = fh.read(end - begin)
        self.offset = end + 1
        fh.seek(self.offset)
        return line, self.offset
