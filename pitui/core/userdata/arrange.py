"""Pins and tags in a session list: `pin:`, `tag:NAME` and `tag:` (any tag) search tokens,
pinned threads first.

The catalog knows nothing of them: the tokens are taken out of the query before it is parsed,
and its rows are then filtered and reordered here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pitui.core.catalog.search.query import take_tokens
from pitui.core.catalog.search.threads import CatalogRow, flat_rows, threaded_rows
from pitui.core.catalog.summary import SessionSummary
from pitui.core.userdata.store import Marks

_MARK_TOKEN = re.compile(r"(?<!\S)(pin:|tag:[^\s\"]*)(?!\S)", re.IGNORECASE)


@dataclass(frozen=True)
class MarkQuery:
    """A query with its `pin:` / `tag:NAME` tokens taken out."""

    text: str  # the rest, for the catalog's parser
    pinned: bool = False
    tags: tuple[str, ...] = ()
    tagged: bool = False  # a bare `tag:`: sessions with any tag

    @property
    def active(self) -> bool:
        return self.pinned or self.tagged or bool(self.tags)


def split_query(text: str) -> MarkQuery:
    """Take `pin:`, `tag:NAME` and `tag:` tokens (outside quotes, not in a `re:` query) out of
    `text`."""
    found, rest = take_tokens(text, _MARK_TOKEN)
    if not found:
        return MarkQuery(text)
    lowered = [token.lower() for token in found]
    pinned = "pin:" in lowered
    tags = tuple(token[4:] for token in lowered if token.startswith("tag:") and token != "tag:")
    return MarkQuery(rest, pinned, tags, tagged="tag:" in lowered)


def apply_marks(rows: list[CatalogRow], marks: Marks, query: MarkQuery) -> list[CatalogRow]:
    """Rows matching the query's marks, with every thread holding a pinned session first."""
    if query.active:
        rows = _filtered(rows, marks, query)
    return pinned_first(rows, marks)


def matches(summary: SessionSummary, marks: Marks, query: MarkQuery) -> bool:
    if query.pinned and not marks.is_pinned(summary.id):
        return False
    have = {tag.lower() for tag in marks.tags_of(summary.id)}
    if query.tagged and not have:
        return False
    return all(tag in have for tag in query.tags)


def _filtered(rows: list[CatalogRow], marks: Marks, query: MarkQuery) -> list[CatalogRow]:
    kept = [row.summary for row in rows if matches(row.summary, marks, query)]
    if all(row.depth == 0 for row in rows):
        return flat_rows(kept)
    newest_first = sorted(kept, key=lambda s: -(s.modified_ms or 0))
    return threaded_rows(newest_first)  # guides drawn again over what is left


def pinned_first(rows: list[CatalogRow], marks: Marks) -> list[CatalogRow]:
    """Stable: threads (a top-level row and the rows under it) holding a pinned session go
    first, in the order they had; so in a flat list, pinned rows first."""
    if not marks.pinned:
        return rows
    threads: list[list[CatalogRow]] = []
    for row in rows:
        if row.depth == 0 or not threads:
            threads.append([])
        threads[-1].append(row)
    pinned = [t for t in threads if any(marks.is_pinned(r.summary.id) for r in t)]
    if not pinned:
        return rows
    rest = [t for t in threads if not any(marks.is_pinned(r.summary.id) for r in t)]
    return [row for thread in (*pinned, *rest) for row in thread]
