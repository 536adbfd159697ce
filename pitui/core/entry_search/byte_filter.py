"""Whether a session file can hold an entry that matches, told from its bytes alone.

An entry search reads every session in scope, and parsing a file is most of its cost; most
files hold no match. A plain token (`matcher.needles`: printable ASCII, no whitespace, no
character JSON escapes with a backslash) is in an entry's lowercased text only if each of its
characters comes from that character in either case, written as itself in the file; from
JSON's `\\u` escape of printable ASCII (which `JSON.stringify` never writes, but another
writer may); or from İ (U+0130) or K (U+212A), the only other characters whose lowercase
holds ASCII, raw or escaped. So a file that spells a token in no ASCII case and holds none of
those other spellings cannot match, and is passed over unparsed: a Rust multi-pattern
searcher over its bytes, about 0.4 s for a 2 GB store on two cores.

A token's spellings in every case are 2 ** letters patterns, so a window of it with at most
`_WINDOW_LETTERS` letters is searched for (its longest such run): a file without the window
cannot hold the token.
"""

from __future__ import annotations

import itertools
import os
import string
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ahocorasick_rs import BytesAhoCorasick

from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular

_WINDOW_LETTERS = 6  # 64 spellings: few enough for the searcher's packed (SIMD) path
_CHUNK = 16 << 20
_PEEK = 64 << 10
# A searcher of one or two patterns takes the fast path (about 0.1 s for 2 GB, a third of what
# the eleven spellings at once take), so the rare `\u` is looked for first.
_ESCAPE = BytesAhoCorasick([b"\\u"])
_ESCAPED_SPELLINGS = BytesAhoCorasick(
    [b"\\u00%d" % digit for digit in range(2, 8)]  # \u0020-\u007f: ASCII, escaped
    + [b"\\u0130", b"\\u212a", b"\\u212A"]
)
_LOWERCASE_HOLDS_ASCII = BytesAhoCorasick(["\u0130".encode(), "\u212a".encode()])
_LONGEST_OTHER = len(b"\\u0130")
# Files read in blocks, half of each by a second thread: the reads and the searcher let go of
# the GIL, so two cores read a 2 GB store in 0.4 s rather than 0.65.
_BLOCK = 256

Item = TypeVar("Item")


class ByteFilter:
    """Rules out files that cannot hold every one of `needles` (lowercase ASCII bytes)."""

    def __init__(self, needles: tuple[bytes, ...]) -> None:
        self._needles = needles
        windows = sorted({_window(needle.decode("ascii")) for needle in needles})
        self._searchers = [_Spellings(window) for window in windows]
        self._overlap = max(_LONGEST_OTHER, *(len(window) for window in windows)) - 1
        self._buffer = bytearray()

    @classmethod
    def of(cls, needles: tuple[bytes, ...]) -> ByteFilter | None:
        """The filter for a query's needles; None when it has none (nothing to rule out by)."""
        return cls(needles) if needles else None

    def passing(self, items: Iterable[Item], path_of: Callable[[Item], str]) -> Iterator[Item]:
        """The items whose files (`path_of(item)`) may match, in their order."""
        helper_filter = ByteFilter(self._needles)  # a buffer of its own
        with ThreadPoolExecutor(1, thread_name_prefix="byte-filter") as helper:
            blocks = iter(items)
            while block := list(itertools.islice(blocks, _BLOCK)):
                theirs = helper.submit(_kept, helper_filter, block[1::2], path_of)
                mine = _kept(self, block[::2], path_of)
                kept = theirs.result()
                for i, item in enumerate(block):
                    if (mine if i % 2 == 0 else kept)[i // 2]:
                        yield item

    def may_match(self, path: str) -> bool:
        """False only when the file at `path` cannot hold a match; True too when it cannot
        be read (the search then says why)."""
        try:
            fd = open_regular(path)
        except (PituiError, OSError, ValueError):
            return True
        try:
            return self._may_match(fd, os.fstat(fd).st_size)
        except OSError:
            return True
        finally:
            os.close(fd)

    def _may_match(self, fd: int, size: int) -> bool:
        missing = list(self._searchers)
        other_spellings = False
        offset = 0
        while read := self._read(fd, offset, size):
            chunk = memoryview(self._buffer)[:read]
            missing = [spellings for spellings in missing if not spellings.found_in(chunk)]
            if not missing:
                return True
            other_spellings = other_spellings or _other_spellings(chunk)
            if read < len(self._buffer):
                break  # the file's end
            offset += read - self._overlap  # a window across two chunks is seen
        return other_spellings

    def _read(self, fd: int, offset: int, size: int) -> int:
        wanted = max(min(size - offset, _CHUNK), self._overlap + 1)
        if len(self._buffer) < wanted:
            self._buffer = bytearray(wanted)
        return os.preadv(fd, [self._buffer], offset)


def _kept(byte_filter: ByteFilter, items: list[Item], path_of: Callable[[Item], str]) -> list[bool]:
    return [byte_filter.may_match(path_of(item)) for item in items]


class _Spellings:
    """Finds a window in any ASCII case. The searcher lists every match, so where a file
    holds many it looks at the chunk's start first."""

    def __init__(self, window: str) -> None:
        self.searcher = BytesAhoCorasick(_spellings(window))
        self._rest_from = _PEEK - (len(window) - 1)  # a window across the peek's end is seen

    def found_in(self, chunk: memoryview) -> bool:
        find = self.searcher.find_matches_as_indexes
        return bool(find(chunk[:_PEEK]) or (len(chunk) > _PEEK and find(chunk[self._rest_from :])))


def _other_spellings(chunk: memoryview) -> bool:
    """Whether `chunk` spells an ASCII character otherwise than as itself."""
    if _LOWERCASE_HOLDS_ASCII.find_matches_as_indexes(chunk):
        return True
    escaped = bool(_ESCAPE.find_matches_as_indexes(chunk))
    return escaped and bool(_ESCAPED_SPELLINGS.find_matches_as_indexes(chunk))


def _window(token: str) -> str:
    """The longest run of `token` with at most `_WINDOW_LETTERS` letters (the first)."""
    best, start, letters = "", 0, 0
    for end, char in enumerate(token):
        letters += char in string.ascii_letters
        while letters > _WINDOW_LETTERS:
            letters -= token[start] in string.ascii_letters
            start += 1
        if end + 1 - start > len(best):
            best = token[start : end + 1]
    return best


def _spellings(window: str) -> list[bytes]:
    """`window` in every ASCII case."""
    cases = ((c, c.upper()) if c in string.ascii_lowercase else (c,) for c in window)
    return ["".join(spelling).encode() for spelling in itertools.product(*cases)]
