"""Pi's picker search and sort over session summaries, plus pitui's filters and extra tiers.

Tiers (lower is better): 0 name, 1 id/messages/cwd, 2 fuzzy on name/cwd (all as Pi), then
pitui's own: 3 label text, 4 tool output (FTS5, word-prefix match; indexed after the listing,
see `SearchResult.tools_pending`, and asked only about the sessions no other tier matched).
A session Pi would match gets exactly Pi's score; the extra tiers only add sessions Pi would
not find.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pitui.core.catalog.search import MEASURES, SORTS
from pitui.core.catalog.search.fuzzy import fuzzy_match
from pitui.core.catalog.search.query import Query, Token, parse_query
from pitui.core.catalog.search.regex_query import RegexTooSlow, TimedSearch
from pitui.core.catalog.search.threads import CatalogRow, flat_rows, threaded_rows
from pitui.core.catalog.summary import SessionSummary
from pitui.core.format.jsvalues import js_trim, normalize_ws_lower

TIER_NAME, TIER_TEXT, TIER_FUZZY, TIER_LABEL, TIER_TOOLS = range(5)
TIER_WEIGHT = 1_000_000

__all__ = [
    "MEASURES",
    "SORTS",
    "CatalogRow",
    "Lookups",
    "SearchCancelled",
    "SearchResult",
    "run_search",
]


class SearchCancelled(Exception):
    """A newer question replaced this search (see `Lookups.cancelled`)."""


def _in_memory(value: str, among: list[SessionSummary]) -> set[str]:
    """The sessions of `among` whose text (in memory) holds `value` (a search form)."""
    if " " in value:
        return {s.path for s in among if value in s.normalized_text}
    return {s.path for s in among if value in s.lower_text}


def _in_memory_where(found: Callable[[str], bool], among: list[SessionSummary]) -> set[str]:
    return {s.path for s in among if found(s.all_messages_text)}


@dataclass(frozen=True)
class Lookups:
    """What the index answers for a search, about the sessions whose text is not in memory
    (`SessionSummary.text_loaded` False): `tools(fts_query, among)`, the paths of `among`
    (sessions no other tier matched) whose tool output matches; `texts(value, among)`, the
    paths of `among` whose conversation text holds `value` (a search form: lowercased, a
    phrase's whitespace runs as one space); `texts_where(found, among)`, those whose text
    satisfies `found` (a regex). `cancelled()` True: stop (`SearchCancelled`)."""

    tools: Callable[[str, set[str]], set[str]] = lambda query, among: set()
    texts: Callable[[str, set[str]], set[str]] = lambda value, among: set()
    texts_where: Callable[[Callable[[str], bool], set[str]], set[str]] = lambda found, among: set()
    cancelled: Callable[[], bool] = lambda: False


@dataclass
class SearchResult:
    rows: list[CatalogRow]
    error: str | None = None
    tools_pending: bool = False  # tool output not all indexed yet: tool-only hits may be missing


def _tier(tier: int, score: float = 0.0) -> float:
    return tier * TIER_WEIGHT + score


def _literal(s: SessionSummary, value: str, in_text: bool) -> float | None:
    """`in_text`: the conversation text holds `value`."""
    name = (s.name or "").lower()
    if value in name:
        return _tier(TIER_NAME, fuzzy_match(value, name)[1])
    if value in str(s.id).lower() or in_text or value in s.cwd.lower():
        return _tier(TIER_TEXT)
    return None


def _fuzzy(
    s: SessionSummary,
    value: str,
    in_text: bool,
    match: Callable[[str, str], tuple[bool, float]] = fuzzy_match,
) -> float | None:
    literal = _literal(s, value.lower(), in_text)
    if literal is not None:
        return literal
    scores = [m[1] for m in (match(value, f) for f in (s.name or "", s.cwd)) if m[0]]
    return _tier(TIER_FUZZY, min(scores)) if scores else None


def _phrase(s: SessionSummary, phrase: str, in_text: bool) -> float | None:
    name = normalize_ws_lower(s.name or "")
    if phrase in name:
        return _tier(TIER_NAME, fuzzy_match(phrase, name)[1])
    if phrase in str(s.id).lower() or in_text:
        return _tier(TIER_TEXT)
    return _tier(TIER_TEXT) if phrase in normalize_ws_lower(s.cwd) else None


def _regex(s: SessionSummary, search: TimedSearch, in_text: bool) -> float | None:
    found = search.found
    if s.name and found(s.name):
        return _tier(TIER_NAME)
    if found(str(s.id)) or in_text or found(s.cwd):
        return _tier(TIER_TEXT)
    return None


class _Matcher:
    def __init__(self, query: Query, lookups: Lookups, pool: list[SessionSummary]) -> None:
        self.query, self.lookups = query, lookups
        self._fuzzy_memo: dict[tuple[str, str], tuple[bool, float]] = {}  # cwds repeat a lot
        self._regex = TimedSearch(query.regex) if query.mode == "regex" else None
        self._pool = pool
        self._text_hits = {token: self._holding(token) for token in query.tokens}

    def _holding(self, token: Token) -> set[str]:
        """The sessions of the pool whose conversation text holds the token's value (of
        those whose score it can change: not those matched by name, id or cwd)."""
        value = _value(token)
        if not value:
            return set()
        open_ = [s for s in self._pool if not _matched_without_text(s, token, value)]
        found = _in_memory(value, [s for s in open_ if s.text_loaded])
        in_index = {s.path for s in open_ if not s.text_loaded}
        if in_index:
            found |= self.lookups.texts(value, in_index)
        self._check()
        return found

    def _check(self) -> None:
        if self.lookups.cancelled():
            raise SearchCancelled

    def scored(self, pool: list[SessionSummary]) -> list[tuple[float, SessionSummary]]:
        """The sessions of `pool` that match, with their scores, in `pool`'s order."""
        if self._regex is not None:
            regex = self._regex
            in_text = _in_memory_where(regex.found, [s for s in pool if s.text_loaded])
            in_index = {s.path for s in pool if not s.text_loaded}
            if in_index:
                in_text |= self.lookups.texts_where(regex.found, in_index)
            scores = ((_regex(s, regex, s.path in in_text), s) for s in pool)
            return [(score, s) for score, s in scores if score is not None]
        totals = [(0.0, s) for s in pool]
        for token in self.query.tokens:  # token by token: the tool tier asks once for each
            totals = self._with_token(totals, token)
            self._check()
        return totals

    def _with_token(
        self, totals: list[tuple[float, SessionSummary]], token: Token
    ) -> list[tuple[float, SessionSummary]]:
        scores = [self._token(s, token) for _, s in totals]
        unmatched = {s.path for (_, s), score in zip(totals, scores, strict=True) if score is None}
        in_tools = self._tool_paths(token, unmatched) if unmatched else set()
        kept: list[tuple[float, SessionSummary]] = []
        for (total, s), score in zip(totals, scores, strict=True):
            if score is None and s.path in in_tools:
                score = _tier(TIER_TOOLS)
            if score is not None:
                kept.append((total + score, s))
        return kept

    def _token(self, s: SessionSummary, token: Token) -> float | None:
        """The token's score on `s` by every tier but the tool output's."""
        in_text = s.path in self._text_hits[token]
        if token.kind == "phrase":
            value = normalize_ws_lower(token.value)
            score = _phrase(s, value, in_text) if value else 0.0
        else:
            value = token.value.lower()
            score = _fuzzy(s, token.value, in_text, self._fuzzy_match)
        if score is not None:
            return score
        if any(value in normalize_ws_lower(label) for label in s.labels):
            return _tier(TIER_LABEL)
        return None

    def _fuzzy_match(self, query: str, text: str) -> tuple[bool, float]:
        key = (query, text)
        found = self._fuzzy_memo.get(key)
        if found is None:
            found = self._fuzzy_memo[key] = fuzzy_match(query, text)
        return found

    def _tool_paths(self, token: Token, among: set[str]) -> set[str]:
        text = token.value.replace('"', '""')
        return self.lookups.tools(
            f'tools : "{text}"' + ("" if token.kind == "phrase" else "*"), among
        )


def _matched_without_text(s: SessionSummary, token: Token, value: str) -> bool:
    """Whether the name, id or cwd alone gives `s` its score for this token (`value` its
    search form), so its text need not be looked at."""
    if token.kind == "phrase":
        name, cwd = normalize_ws_lower(s.name or ""), normalize_ws_lower(s.cwd)
    else:
        name, cwd = (s.name or "").lower(), s.cwd.lower()
    return value in name or value in str(s.id).lower() or value in cwd


def _value(token: Token) -> str:
    """What the token looks for in conversation text, in the text's search form."""
    return normalize_ws_lower(token.value) if token.kind == "phrase" else token.value.lower()


def passes_filters(s: SessionSummary, query: Query) -> bool:
    for key, value in query.filters:
        if key == "cwd" and value not in normalize_ws_lower(s.cwd):
            return False
        if key == "name" and value not in normalize_ws_lower(s.name or ""):
            return False
        if key == "label" and not any(value in normalize_ws_lower(x) for x in s.labels):
            return False
        if key == "model" and not any(value in x.lower() for x in s.models):
            return False
    t = s.modified_ms
    if query.after_ms is not None and (t is None or t < query.after_ms):
        return False
    return query.before_ms is None or (t is not None and t < query.before_ms)


def _largest_first(sessions: list[SessionSummary], sort: str) -> list[SessionSummary]:
    """Largest value first, stable (newest first among equals); NaN, as JavaScript's
    numbers allow in a cost, last."""
    name = MEASURES[sort]

    def key(s: SessionSummary) -> float:
        value = float(getattr(s, name))
        return float("inf") if math.isnan(value) else -value

    return sorted(sessions, key=key)


def run_search(
    sessions: list[SessionSummary],
    text: str,
    sort: str,
    named_only: bool,
    lookups: Lookups | None = None,
) -> SearchResult:
    """`sessions` newest first; Pi's `filterAndSortSessions` plus filters and threading."""
    if sort not in SORTS:
        return SearchResult([], f"unknown sort {sort!r} (use {', '.join(SORTS)})")
    query = parse_query(text)
    if query.error:
        return SearchResult([], query.error)
    pool = [s for s in sessions if not named_only or js_trim(s.name or "")]
    pool = [s for s in pool if passes_filters(s, query)]
    if not query.has_text:
        if sort in MEASURES:
            return SearchResult(flat_rows(_largest_first(pool, sort)))
        return SearchResult(threaded_rows(pool) if sort == "threaded" else flat_rows(pool))
    try:
        scored = _Matcher(query, lookups or Lookups(), pool).scored(pool)
    except RegexTooSlow as error:
        return SearchResult([], str(error))
    if sort in MEASURES:  # the query selects, the measure orders
        return SearchResult(flat_rows(_largest_first([s for _, s in scored], sort)))
    if sort != "recent":  # Pi ranks by score for "relevance" and for "threaded" with a query
        scored.sort(key=lambda pair: pair[0])  # stable: newest first within a score
    return SearchResult(flat_rows([s for _, s in scored]))
