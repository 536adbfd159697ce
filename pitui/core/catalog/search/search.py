"""Pi's picker search and sort over session summaries, plus pitui's filters and extra tiers.

Tiers (lower is better): 0 name, 1 id/messages/cwd, 2 fuzzy on name/cwd (all as Pi), then
pitui's own: 3 label text, 4 tool output (every word of the token in it, the last as a
prefix: see `index.tool_words`; indexed after the listing, see `SearchResult.tools_pending`,
and asked only about the sessions no other tier matched).
A session Pi would match gets exactly Pi's score; the extra tiers only add sessions Pi would
not find.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from pitui.core.catalog.search import MEASURES, SORTS
from pitui.core.catalog.search.fuzzy import fuzzy_match, quick_miss
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
    (`SessionSummary.text_loaded` False): `tools(value, prefix, among)`, the paths of
    `among` (sessions no other tier matched) whose tool output holds every word of `value`
    (the last as a prefix when `prefix`); `texts(value, among)`, the
    paths of `among` whose conversation text holds `value` (a search form: lowercased, a
    phrase's whitespace runs as one space); `texts_where(found, among)`, those whose text
    satisfies `found` (a regex); `files(value)`, the paths of the sessions a `file:VALUE`
    filter keeps. `cancelled()` True: stop (`SearchCancelled`)."""

    tools: Callable[[str, bool, set[str]], set[str]] = lambda value, prefix, among: set()
    texts: Callable[[str, set[str]], set[str]] = lambda value, among: set()
    texts_where: Callable[[Callable[[str], bool], set[str]], set[str]] = lambda found, among: set()
    cancelled: Callable[[], bool] = lambda: False
    files: Callable[[str], set[str]] = lambda value: set()


@dataclass
class SearchResult:
    rows: list[CatalogRow]
    error: str | None = None
    tools_pending: bool = False  # tool output not all indexed yet: tool-only hits may be missing


def _tier(tier: int, score: float = 0.0) -> float:
    return tier * TIER_WEIGHT + score


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
        self._fuzzy_memo: dict[tuple[str, str], float | None] = {}
        self._regex = TimedSearch(query.regex) if query.mode == "regex" else None
        self._values = {token: _value(token) for token in query.tokens}
        self._fuzzy_misses = {token: quick_miss(token.value) for token in query.tokens}

    def _holding(self, value: str, among: list[SessionSummary]) -> set[str]:
        """The sessions of `among` whose conversation text holds `value` (a search form)."""
        found = _in_memory(value, [s for s in among if s.text_loaded])
        in_index = {s.path for s in among if not s.text_loaded}
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
        scores = self._scores([s for _, s in totals], token)
        unmatched = {s.path for (_, s), score in zip(totals, scores, strict=True) if score is None}
        in_tools = self._tool_paths(token, unmatched) if unmatched else set()
        kept: list[tuple[float, SessionSummary]] = []
        for (total, s), score in zip(totals, scores, strict=True):
            if score is None and s.path in in_tools:
                score = _tier(TIER_TOOLS)
            if score is not None:
                kept.append((total + score, s))
        return kept

    def _scores(self, pool: list[SessionSummary], token: Token) -> list[float | None]:
        """The token's score on each session of `pool` by every tier but the tool output's:
        the name (0), the id, cwd or text (1), for a word fuzzy on the name or cwd (2), a
        label (3). One loop over the sessions (10,000 of them in ~20 ms); the text is asked
        of the index only for the sessions name, id and cwd leave open."""
        value, phrase = self._values[token], token.kind == "phrase"
        if phrase and not value:
            return [0.0] * len(pool)
        scores: list[float | None] = [None] * len(pool)
        open_: list[int] = []
        for i, s in enumerate(pool):
            if not i % 2048:
                self._check()  # a newer keystroke stops this within milliseconds
            keys = s.search_keys
            name = keys.name_words if phrase else keys.name
            if value in name:
                scores[i] = _tier(TIER_NAME, fuzzy_match(value, name)[1])
            elif value in keys.id or value in (keys.cwd_words if phrase else keys.cwd):
                scores[i] = _tier(TIER_TEXT)
            else:
                open_.append(i)
        in_text = self._holding(value, [pool[i] for i in open_])
        for i in open_:
            s = pool[i]
            if s.path in in_text:
                scores[i] = _tier(TIER_TEXT)
                continue
            if not phrase:
                on_name = self._fuzzy_score(token, s.name or "", s.search_keys.name)
                on_cwd = self._fuzzy_score(token, s.cwd, s.search_keys.cwd)
                found = [score for score in (on_name, on_cwd) if score is not None]
                if found:
                    scores[i] = _tier(TIER_FUZZY, min(found))
                    continue
            if s.labels and any(value in normalize_ws_lower(label) for label in s.labels):
                scores[i] = _tier(TIER_LABEL)
        return scores

    def _fuzzy_score(self, token: Token, text: str, lowered: str) -> float | None:
        """The word's fuzzy score on `text` (`lowered`: it lowercased), None when it does not
        match; remembered by text, as folders, and unnamed sessions' empty names, repeat."""
        key = (token.value, text)
        try:
            return self._fuzzy_memo[key]
        except KeyError:
            pass
        score = None
        if not self._fuzzy_misses[token](lowered):
            matches, found = fuzzy_match(token.value, text)
            score = found if matches else None
        self._fuzzy_memo[key] = score
        return score

    def _tool_paths(self, token: Token, among: set[str]) -> set[str]:
        return self.lookups.tools(token.value, token.kind != "phrase", among)


def _value(token: Token) -> str:
    """What the token looks for in conversation text, in the text's search form."""
    return normalize_ws_lower(token.value) if token.kind == "phrase" else token.value.lower()


def _in_folder(cwd: str, value: str) -> bool:
    """`cwd:VALUE`: a path (starting with "/") is that folder or one under it
    (`cwd:/home/dev/proj-3` is not proj-30); any other value, a part of the cwd."""
    if not value.startswith("/"):
        return value in cwd
    folder = value.rstrip("/")
    return cwd == folder or cwd.startswith(folder + "/") or not folder


def passes_filters(s: SessionSummary, query: Query) -> bool:
    for key, value in query.filters:
        if key == "cwd" and not _in_folder(s.search_keys.cwd_words, value):
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
    pool = [s for s in sessions if js_trim(s.name or "")] if named_only else sessions
    if query.filters or query.after_ms is not None or query.before_ms is not None:
        pool = [s for s in pool if passes_filters(s, query)]
    for value in query.files:
        writing = (lookups or Lookups()).files(value)
        pool = [s for s in pool if s.path in writing]
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
