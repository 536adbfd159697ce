"""Whether one entry's text matches a query of `pitui list`'s syntax, and where.

Every token must be in the entry's own text (AND within one entry): a plain token as a
case-insensitive substring, a `"phrase"` with whitespace runs as one space, `re:` as a
case-insensitive regular expression. Field filters are applied by the caller (`scan`,
`search`): `cwd:`, `name:`, `model:` select sessions, `label:` the entry's label, `after:`
and `before:` the entry's time.

`may_match_line` rules a line out from its bytes before it is parsed: in a line of ASCII
bytes without a `\\u` escape, every character of a JSON string is the byte itself or comes
from an escape (`\\" \\\\ \\/ \\b \\f \\n \\r \\t`); so a lowercase token of printable ASCII
other than those can only be in the text if its bytes are in the lowercased line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pitui.core.catalog.search.query import Query, Token, parse_query
from pitui.core.catalog.search.regex_query import TimedSearch
from pitui.core.format.jsvalues import JS_SPACE, normalize_ws_lower

_ESCAPED = frozenset('"\\/')


@dataclass
class EntryMatcher:
    query: Query
    needles: tuple[bytes, ...] = ()  # bytes every line that can match holds (lowercased)
    _timed: TimedSearch | None = field(default=None, repr=False)
    _finders: list[Any] = field(default_factory=list, repr=False)

    @classmethod
    def parse(cls, text: str) -> EntryMatcher:
        """The matcher of a query; `query.error` says why one cannot be used."""
        query = parse_query(text)
        timed = TimedSearch(query.regex) if query.mode == "regex" and query.regex else None
        needles = tuple(n for token in query.tokens for n in _needles(token))
        return cls(query, needles, timed)

    def may_match_line(self, line: bytes) -> bool:
        """False only when no entry text from this line can match."""
        if not self.needles or not line.isascii() or b"\\u" in line:
            return True
        lower = line.lower()
        return all(needle in lower for needle in self.needles)

    def matches(self, text: str) -> bool:
        """Whether `text` holds every token (or the `re:` pattern); raises `RegexTooSlow`."""
        if self._timed is not None:
            return self._timed.found(text)
        lower: str | None = None
        normalized: str | None = None
        for token in self.query.tokens:
            if token.kind == "phrase":
                normalized = normalize_ws_lower(text) if normalized is None else normalized
                if normalize_ws_lower(token.value) not in normalized:
                    return False
            else:
                lower = text.lower() if lower is None else lower
                if token.value.lower() not in lower:
                    return False
        return True

    def span(self, text: str) -> tuple[int, int]:
        """Where the first token (or the pattern) is in `text`, for a snippet; (0, 0) when
        it cannot be placed (no text tokens, or case folding moved it)."""
        if self._timed is not None:
            found = self._timed.search(text)
            return found.span() if found is not None else (0, 0)
        if not self._finders:
            self._finders = [_finder(token) for token in self.query.tokens[:1]]
        for finder in self._finders:
            found = finder.search(text, timeout=1.0)
            if found is not None:
                return found.span()
        return (0, 0)


def _needles(token: Token) -> list[bytes]:
    words = normalize_ws_lower(token.value).split(" ") if token.kind == "phrase" else [token.value]
    lowered = (word.lower() for word in words)
    return [word.encode() for word in lowered if word and _plain(word)]


def _plain(word: str) -> bool:
    """Printable ASCII that no JSON escape but `\\u` writes, and no whitespace."""
    return (
        word.isascii()
        and word.isprintable()
        and not (_ESCAPED & set(word))
        and not any(ch in JS_SPACE for ch in word)
    )


def _finder(token: Token) -> Any:
    import regex  # deferred: regex, ~8 ms, only for a `re:` query

    words = token.value.split() if token.kind == "phrase" else [token.value]
    pattern = r"\s+".join(regex.escape(word) for word in words if word)
    return regex.compile(pattern, regex.IGNORECASE | regex.VERSION0)
