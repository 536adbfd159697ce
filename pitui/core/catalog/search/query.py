"""Parsing a picker query: Pi's syntax (tokens, `"phrases"`, `re:`) plus pitui's field filters."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pitui.core.catalog.search.regex_query import compile_pattern
from pitui.core.format.jsvalues import JS_SPACE, js_trim, normalize_ws_lower
from pitui.core.format.timestamps import parse_day

# every word is matched against every session (100 KB of words took 36 s), as MCP bounds them
MAX_QUERY = 2_000  # characters
MAX_TOKENS = 50  # words, phrases and filters
_FILTER = re.compile(r"^(cwd|name|label|model|after|before|file):(.*)$", re.IGNORECASE | re.DOTALL)
_SPACE_RUN = re.compile(f"[{JS_SPACE}]+")
_STORE_TOKEN = re.compile(
    r"(?<!\S)(in:(?:local|archive|all)|host:[A-Za-z0-9][A-Za-z0-9._-]*)(?!\S)", re.IGNORECASE
)
Store = str  # "local", "archive", "all" (every store listed) or a remote's name
STORES: tuple[Store, ...] = ("local", "archive", "all")


def take_tokens(text: str, pattern: re.Pattern[str]) -> tuple[list[str], str]:
    """The tokens `pattern` finds in `text` outside quotes (none in a `re:` query), and the
    text without them (unchanged when none is found)."""
    if text.lstrip().startswith("re:"):
        return [], text
    parts = text.split('"')
    if len(parts) % 2 == 0:  # unbalanced quotes: Pi reads every token as plain
        parts = [text]
    found: list[str] = []
    for index in range(0, len(parts), 2):  # even parts are outside quotes
        found += pattern.findall(parts[index])
        parts[index] = pattern.sub(" ", parts[index])
    return (found, '"'.join(parts).strip()) if found else ([], text)


def split_store(text: str, default: Store = "local") -> tuple[Store, str]:
    """The store an `in:local` / `in:archive` / `in:all` / `host:NAME` (a remote's) token
    chooses (the last one), else `default`; and the query without them."""
    found, rest = take_tokens(text, _STORE_TOKEN)
    if not found:
        return default, text
    kind, _, name = found[-1].partition(":")
    return (name if kind.lower() == "host" else name.lower()), rest


@dataclass(frozen=True)
class Token:
    kind: str  # "fuzzy" | "phrase"
    value: str


@dataclass
class Query:
    mode: str = "tokens"  # "tokens" | "regex"
    tokens: list[Token] = field(default_factory=list)
    regex: Any = None  # a `regex.Pattern` (see `regex_query`)
    filters: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # `file:` paths, as typed (`file_filter`)
    after_ms: int | None = None
    before_ms: int | None = None
    error: str | None = None
    bad_filter: bool = False  # the error is a filter's value (a day that does not exist)
    too_long: bool = False  # refused for its size, before any session is looked at

    @property
    def has_text(self) -> bool:
        return self.mode == "regex" or bool(self.tokens)


def parse_query(text: str) -> Query:
    """Pi's `parseSearchQuery`; then `field:value` tokens (value maybe quoted) become filters."""
    trimmed = js_trim(text)
    if not trimmed:
        return Query()
    if trimmed.startswith("re:"):
        return _regex(js_trim(trimmed[3:]))
    if len(trimmed) > MAX_QUERY:
        error = f"query over {MAX_QUERY:,} characters ({len(trimmed):,}); shorten it"
        return Query(error=error, too_long=True)
    query = Query(tokens=_tokens(trimmed))
    if len(query.tokens) > MAX_TOKENS:
        error = f"query of over {MAX_TOKENS} words ({len(query.tokens)}); use fewer"
        return Query(error=error, too_long=True)
    _extract_filters(query)
    return query


MARK_PREFIXES = ("pin:", "tag:")  # pitui's own filters (`pitui.ui.marks`), not text


def text_words(text: str) -> str:
    """What a plain text search can look for in a query: its words and phrases, without field
    filters, marks or a regular expression ("" when nothing is left). The tree's search takes
    it when a session is opened from a search."""
    query = parse_query(text)
    if query.mode != "tokens":
        return ""
    words = (t.value for t in query.tokens if not t.value.lower().startswith(MARK_PREFIXES))
    return " ".join(words)


def _regex(pattern: str) -> Query:
    if not pattern:
        return Query(mode="regex", error="Empty regex")
    try:
        return Query(mode="regex", regex=compile_pattern(pattern))
    except ValueError as error:
        shown = pattern if len(pattern) <= 80 else pattern[:79] + "…"
        return Query(mode="regex", error=f"Invalid regular expression: /{shown}/: {error}")


def _tokens(trimmed: str) -> list[Token]:
    tokens: list[Token] = []
    buf: list[str] = []
    in_quote = False

    def flush(kind: str) -> None:
        value = js_trim("".join(buf))
        buf.clear()
        if value:
            tokens.append(Token(kind, value))

    for ch in trimmed:
        if ch == '"':
            flush("phrase" if in_quote else "fuzzy")
            in_quote = not in_quote
        elif not in_quote and ch in JS_SPACE:
            flush("fuzzy")
        else:
            buf.append(ch)
    if in_quote:  # unbalanced quotes: plain whitespace tokens
        return [Token("fuzzy", t) for t in _SPACE_RUN.split(trimmed) if t]
    flush("fuzzy")
    return tokens


def _extract_filters(query: Query) -> None:
    kept: list[Token] = []
    tokens = query.tokens
    i = 0
    while i < len(tokens):
        token = tokens[i]
        found = _FILTER.match(token.value) if token.kind == "fuzzy" else None
        if found is None:
            kept.append(token)
            i += 1
            continue
        key, value = found.group(1).lower(), found.group(2)
        if not value and i + 1 < len(tokens) and tokens[i + 1].kind == "phrase":
            value, i = tokens[i + 1].value, i + 1
        i += 1
        if value:
            _add_filter(query, key, value)
        elif key == "label":  # a bare `label:`: any label, as a bare `tag:` is any tag
            query.filters.append((key, ""))
        else:
            kept.append(token)
    query.tokens = kept


def _add_filter(query: Query, key: str, value: str) -> None:
    if key == "file":  # a path: its case matters
        query.files.append(value)
        return
    if key not in ("after", "before"):
        query.filters.append((key, normalize_ws_lower(value)))
        return
    try:
        day = parse_day(value)
    except ValueError as error:
        query.error, query.bad_filter = f"{key}: {error}", True
        return
    ms = int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)
    if key == "after":
        query.after_ms = ms
    else:
        query.before_ms = ms
