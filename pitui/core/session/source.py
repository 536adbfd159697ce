"""Reading lines back from the file they were read from, by byte range.

Entries keep only their byte range; their JSON is read again when first shown. The source
holds a read-only descriptor, so it keeps reading the same inode even after the path is
replaced (Pi's migration renames a new file into place): entries never mix two versions of
a file. The descriptor closes when no entry or reader uses the source any more.
"""

from __future__ import annotations

import os
import weakref

from pitui.core.regular_file import open_regular

_FIRST_READ = 8192  # most lines are shorter; a longer one is read again, twice as far


class LineSource:
    """A read-only descriptor on one inode of a session file."""

    __slots__ = ("__weakref__", "_fd", "inode")

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._fd = open_regular(path)
        try:
            self.inode = os.fstat(self._fd).st_ino
        except OSError:
            os.close(self._fd)
            raise
        weakref.finalize(self, os.close, self._fd)

    def read(self, start: int, size: int) -> bytes:
        """Up to `size` bytes from `start` (fewer at the end of the file)."""
        return os.pread(self._fd, size, start)

    def read_into(self, buffer: bytearray, start: int) -> int:
        """Fill `buffer` from `start`; returns how many bytes were read."""
        return os.preadv(self._fd, [buffer], start)

    def size(self) -> int:
        return os.fstat(self._fd).st_size

    def stat(self) -> os.stat_result:
        return os.fstat(self._fd)

    def read_line(self, start: int) -> bytes:
        """The line that starts at `start`, without its newline (to the end of the file if
        it has none)."""
        size = _FIRST_READ
        while True:
            data = self.read(start, size)
            end = data.find(b"\n")
            if end != -1:
                return data[:end]
            if len(data) < size:
                return data
            size *= 2
