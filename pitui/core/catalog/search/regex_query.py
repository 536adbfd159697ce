"""`re:` queries, compiled within bounds and searched within a time budget.

Python's `re` cannot be interrupted and holds the GIL while it matches: a pattern that
backtracks without end (`re:(a|aa)+$` over a long run of "a") froze the whole app, its quit
key included. The `regex` module (the same syntax as `re`) spots most such patterns and
matches the rest against a timeout, letting other threads run meanwhile (`concurrent`): the
app stays responsive and the search ends with a message instead. Imported only when a
query starts with `re:`.

Compiling has bounds of its own, checked before `regex` sees the pattern: `regex` expands
counted repeats, so the 33 characters `(?:(?:(?:(?:a{80}){80}){80}){80})` (40,960,000
copies of "a") took 11.6 GB while compiling. A pattern is refused when it is longer than
`MAX_PATTERN` characters or its repeats expand to more than `MAX_EXPANSION` items
(`(?:a{80}){80}{80}` compiles in 0.16 GB, 100,000 items in 40 MB).

The matching budget is one search's own: a search holds one of `SLOTS` (the machine's
cores) while it matches, and only that time counts, so a burst of searches from many
threads (the MCP server's) waits its turn instead of running every search out of its time.
"""

from __future__ import annotations

import os
import re
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

BUDGET = 2.0  # seconds one search may spend matching, over every session it looks at
MAX_PATTERN = 2_000  # characters of a pattern
MAX_EXPANSION = 100_000  # items a pattern's counted repeats expand to
SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))
_clock = time.monotonic


class RegexTooSlow(Exception):
    def __init__(self, pattern: str) -> None:
        shown = pattern if len(pattern) <= 80 else pattern[:80] + "…"
        super().__init__(
            f"Regular expression too slow: /{shown}/ took over {BUDGET:g} s; simplify it"
        )


def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Case-insensitive, as Pi's `new RegExp(pattern, "i")`; ValueError says what is wrong
    (too long, repeats that expand too far, bad syntax)."""
    if len(pattern) > MAX_PATTERN:
        raise ValueError(f"over {MAX_PATTERN:,} characters ({len(pattern):,}); shorten it")
    if expansion(pattern) > MAX_EXPANSION:
        raise ValueError(
            f"its repeats expand to over {MAX_EXPANSION:,} items; use fewer or smaller {{n}}"
        )
    # deferred: regex, ~8 ms off a listing without `re:`
    import regex

    try:
        return regex.compile(pattern, regex.IGNORECASE | regex.VERSION0)
    except (regex.error, RecursionError, OverflowError, MemoryError) as error:
        raise ValueError(str(error)) from None


_ESCAPE_BRACES = frozenset("pPNxuUg")  # \p{L}, \N{NAME}, \x{263a}: braces, not a repeat


def expansion(pattern: str) -> int:
    """About how many items compiling `pattern` makes: each character, class or escape one,
    a group the sum of its items, an item repeated `{m,n}` times max(m, n) times as many
    (`*`, `+`, `?` and `{m,}` loop rather than copy). Alternatives are summed, as `regex`
    compiles each of them."""
    frames: list[list[int]] = [[0, 0]]  # per open group: its total, its last item's size
    i, n = 0, len(pattern)

    def item(size: int) -> None:
        frames[-1][0] += size
        frames[-1][1] = size

    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            if i - 1 < n and pattern[i - 1] in _ESCAPE_BRACES and i < n and pattern[i] in "{<":
                close = pattern.find("}" if pattern[i] == "{" else ">", i)
                i = n if close < 0 else close + 1
            item(1)
            continue
        if ch == "[":
            i = _class_end(pattern, i + 1)
            item(1)
            continue
        if ch == "(":
            if pattern.startswith("(?#", i):
                close = pattern.find(")", i)
                i = n if close < 0 else close + 1
                continue
            frames.append([0, 0])
            i = _group_body(pattern, i + 1)
            continue
        elif ch == ")":
            if len(frames) > 1:
                total = frames.pop()[0]
                item(total)
        elif ch == "{":
            times, end = _repeat(pattern, i)
            if times is not None:
                frame = frames[-1]
                frame[0] += frame[1] * (times - 1) if times else -frame[1]
                frame[1] *= times
                i = end
                continue
            item(1)
        elif ch not in "|*+?^$":
            item(1)
        i += 1
        if frames[0][0] > MAX_EXPANSION or any(f[1] > MAX_EXPANSION for f in frames):
            return MAX_EXPANSION + 1
    while len(frames) > 1:  # unclosed groups: regex refuses them; count them anyway
        total = frames.pop()[0]
        item(total)
    return frames[0][0]


_GROUP_PREFIX = re.compile(r"\?(?:[:=!>|]|<[=!]|P?<[^>]*>|[a-zA-Z-]*:?)")


def _group_body(pattern: str, i: int) -> int:
    """The index after a group's `?:`, `?<name>`, `?=`... (`i` is after its `(`)."""
    found = _GROUP_PREFIX.match(pattern, i) if pattern.startswith("?", i) else None
    return found.end() if found else i


def _class_end(pattern: str, i: int) -> int:
    """The index after the `]` closing a class whose body starts at `i`."""
    n = len(pattern)
    if i < n and pattern[i] == "^":
        i += 1
    if i < n and pattern[i] == "]":
        i += 1
    while i < n:
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern.startswith("[:", i):
            close = pattern.find(":]", i + 2)
            if close >= 0:
                i = close + 2
                continue
        if pattern[i] == "]":
            return i + 1
        i += 1
    return n


def _repeat(pattern: str, i: int) -> tuple[int | None, int]:
    """The copies a `{m}`, `{m,n}`, `{,n}` or `{m,}` at `i` makes, and the index after it;
    None when the brace is a literal one."""
    close = pattern.find("}", i)
    if close < 0:
        return None, i
    low, comma, high = pattern[i + 1 : close].partition(",")
    low, high = low.strip(), high.strip()
    if not (low.isdigit() or (comma and high.isdigit() and not low)) or (
        high and not high.isdigit()
    ):
        return None, i
    if len(low) > 9 or len(high) > 9:
        return MAX_EXPANSION + 1, close + 1
    upper = int(high) if high else 0
    return max(int(low or 0), upper if comma else int(low or 0)), close + 1


class TimedSearch:
    """Searches with one pattern until `BUDGET` seconds of matching are spent in all: the
    time it matches while holding one of the `SLOTS`, not the time it waits for one."""

    def __init__(self, pattern: regex.Pattern[str]) -> None:
        self.pattern = pattern
        self._left = BUDGET

    def found(self, text: str) -> bool:
        return self.search(text) is not None

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match in `text`; raises `RegexTooSlow` once the budget is spent."""
        if self._left <= 0:
            raise RegexTooSlow(self.pattern.pattern)
        with SLOTS:
            start = _clock()
            try:
                return self.pattern.search(text, timeout=self._left, concurrent=True)
            except TimeoutError:
                self._left = 0
                raise RegexTooSlow(self.pattern.pattern) from None
            finally:
                self._left -= _clock() - start
