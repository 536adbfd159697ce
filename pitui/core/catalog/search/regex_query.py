"""`re:` queries, searched within a time budget.

Python's `re` cannot be interrupted and holds the GIL while it matches: a pattern that
backtracks without end (`re:(a|aa)+$` over a long run of "a") froze the whole app, its quit
key included. The `regex` module (the same syntax as `re`) spots most such patterns and
matches the rest against a timeout, letting other threads run meanwhile (`concurrent`): the
app stays responsive and the search ends with a message instead. Imported only when a
query starts with `re:`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

BUDGET = 2.0  # seconds one search may spend matching, over every session it looks at


class RegexTooSlow(Exception):
    def __init__(self, pattern: str) -> None:
        super().__init__(
            f"Regular expression too slow: /{pattern}/ took over {BUDGET:g} s; simplify it"
        )


def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """Case-insensitive, as Pi's `new RegExp(pattern, "i")`; ValueError says what is wrong."""
    # deferred: see ARCHITECTURE.md
    import regex

    try:
        return regex.compile(pattern, regex.IGNORECASE | regex.VERSION0)
    except (regex.error, RecursionError, OverflowError) as error:
        raise ValueError(str(error)) from None


class TimedSearch:
    """Searches with one pattern until `BUDGET` seconds of matching are spent in all."""

    def __init__(self, pattern: regex.Pattern[str]) -> None:
        self.pattern = pattern
        self._left = BUDGET

    def found(self, text: str) -> bool:
        return self.search(text) is not None

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match in `text`; raises `RegexTooSlow` once the budget is spent."""
        if self._left <= 0:
            raise RegexTooSlow(self.pattern.pattern)
        start = time.monotonic()
        try:
            return self.pattern.search(text, timeout=self._left, concurrent=True)
        except TimeoutError:
            self._left = 0
            raise RegexTooSlow(self.pattern.pattern) from None
        finally:
            self._left -= time.monotonic() - start
