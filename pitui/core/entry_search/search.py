"""Entry search across sessions: every entry whose own text matches, newest session first.

The sessions come from the catalog (its order: newest first); `cwd:`, `name:`, `model:` and
`label:` filters select sessions from their summaries as `pitui list` does; a file whose
bytes cannot hold the query's words is passed over (`byte_filter`); the others are read for
their matching entries (`scan`). The catalog's text indexes are not used to narrow the
files: they hold only the conversation text Pi's picker searches, and an entry also matches
on its thinking, tool calls and tool output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from pitui.core.catalog.search.regex_query import RegexTooSlow
from pitui.core.catalog.search.search import passes_filters
from pitui.core.catalog.summary import SessionSummary
from pitui.core.entry_search.byte_filter import ByteFilter
from pitui.core.entry_search.matcher import EntryMatcher
from pitui.core.entry_search.said import ROLES
from pitui.core.entry_search.scan import EntryHit, session_hits
from pitui.core.entry_search.snippet import cut
from pitui.core.errors import PituiError

__all__ = ["ROLES", "EntryHit", "EntrySearch", "EntryStream", "search_entries", "session_matches"]


@dataclass
class EntrySearch:
    hits: list[EntryHit] = field(default_factory=list)
    error: str | None = None  # the query cannot be used, or took too long
    unreadable: list[str] = field(default_factory=list)  # "path: why"
    more: bool = False  # more entries match than `limit` allowed


class EntryStream:
    """The matching entries of `sessions` (newest first), in file order within each session,
    read a session at a time as they are iterated, without snippets (`finish` makes one).

    `error` says why the query cannot be used (then nothing is read), or that a `re:` took
    too long (then the iteration stopped); `unreadable` lists the files that could not be
    read ("path: why")."""

    def __init__(
        self,
        sessions: Iterable[SessionSummary],
        text: str,
        *,
        role: str | None = None,
        redact: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """`progress(done, total)`: the sessions gone through (filtered out or read)."""
        self.matcher = EntryMatcher.parse(text)
        self.error = self.matcher.query.error
        if role is not None and role not in ROLES:
            self.error = f"unknown role {role!r} (use {', '.join(ROLES)})"
        self.unreadable: list[str] = []
        self._sessions, self._role, self._redact = sessions, role, redact
        self._progress = progress

    def __iter__(self) -> Iterator[EntryHit]:
        if self.error:
            return
        query = self.matcher.query
        session_filter = replace(query, after_ms=None, before_ms=None)  # times are the entries'
        byte_filter = ByteFilter.of(self.matcher.needles)
        candidates: Iterator[SessionSummary] = (
            s for s in self._counted() if passes_filters(s, session_filter)
        )
        if byte_filter is not None:
            candidates = byte_filter.passing(candidates, _path_of)
        try:
            for summary in candidates:
                try:
                    hits = session_hits(summary.path, self.matcher, self._role)
                except (PituiError, OSError) as error:
                    self.unreadable.append(f"{summary.path}: {error}")
                    continue
                for hit in hits:
                    hit.summary = summary
                    yield hit
        except RegexTooSlow as error:
            self.error = str(error)

    def _counted(self) -> Iterator[SessionSummary]:
        sessions = list(self._sessions)
        for done, summary in enumerate(sessions, 1):
            yield summary
            if self._progress is not None:
                self._progress(done, len(sessions))

    def finish(self, hit: EntryHit) -> EntryHit:
        """`hit` with its snippet (`redact`: secrets in it replaced, as an export does),
        its whole text let go."""
        hit.set_snippet(_snippet(hit.text, self.matcher, self._redact))
        hit.text = ""
        return hit


def search_entries(
    sessions: Iterable[SessionSummary],
    text: str,
    *,
    role: str | None = None,
    limit: int | None = None,
    offset: int = 0,
    redact: bool = False,
) -> EntrySearch:
    """Matching entries of `sessions` (newest first), in file order within each session,
    `offset` of them skipped, at most `limit` kept, each with its snippet (`redact`:
    secrets in the snippets replaced, as an export does)."""
    stream = EntryStream(sessions, text, role=role, redact=redact)
    wanted = None if limit is None else offset + limit
    hits: list[EntryHit] = []
    for hit in stream:
        hits.append(hit)
        if wanted is not None and len(hits) > wanted:
            break
    if stream.error:
        return EntrySearch(error=stream.error)
    kept = hits[offset:]
    more = limit is not None and len(kept) > limit
    kept = kept[:limit] if limit is not None else kept
    return EntrySearch([stream.finish(hit) for hit in kept], None, stream.unreadable, more)


def session_matches(path: str, text: str, shown: int) -> tuple[list[EntryHit], int]:
    """The first `shown` entries of one session that match `text`, with their snippets, and
    how many match in all (none for a query without text, or one that cannot be used)."""
    matcher = EntryMatcher.parse(text)
    if matcher.query.error or not matcher.query.has_text:
        return [], 0
    try:
        hits = session_hits(path, matcher)
        for hit in hits[:shown]:
            hit.set_snippet(_snippet(hit.text, matcher, False))
    except RegexTooSlow:
        return [], 0
    return hits[:shown], len(hits)


def _path_of(summary: SessionSummary) -> str:
    return summary.path


def _snippet(text: str, matcher: EntryMatcher, redact: bool) -> str:
    if redact:
        # deferred: the secret detector, ~11 ms, only when redacting
        from pitui.core.secrets import redact as redact_text

        text = redact_text(text)[0]
    try:
        return cut(text, matcher.span(text))
    except (RegexTooSlow, TimeoutError):
        return cut(text, (0, 0))
