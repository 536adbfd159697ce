"""Pins and tags in the picker: a search that honours `pin:` / `tag:NAME` and puts pinned
threads first, and rows that show the marks before the title."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from pitui.core.catalog.search.search import SearchResult
from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.listing.sessions import load_marks
from pitui.core.userdata.arrange import apply_marks, split_query
from pitui.core.userdata.store import Marks


@dataclass
class MarkedRow(CatalogRow):
    """A catalog row that knows its session's pin and tags (shown after the thread guide)."""

    pinned: bool = False
    tags: tuple[str, ...] = ()

    def guide(self) -> str:
        marks = ("● " if self.pinned else "") + (
            f"[{_cut(' '.join(self.tags))}] " if self.tags else ""
        )
        return super().guide() + marks


TAGS_SHOWN = 14  # characters of a row's tags before its title (the preview shows them all)


def _cut(tags: str) -> str:
    """Tags cut to `TAGS_SHOWN`: at 80 columns long ones left no room for the title."""
    return tags if len(tags) <= TAGS_SHOWN else tags[: TAGS_SHOWN - 1] + "…"


def search_with_marks(query: str, search: Callable[[str], SearchResult]) -> SearchResult:
    """`search` (a catalog's, its options bound) with pins and tags: their tokens taken out
    of the query it is asked, its rows filtered, pinned first."""
    mark_query = split_query(query)
    result = search(mark_query.text)
    marks = load_marks([])  # an unreadable file: none (pinning then says why)
    rows = apply_marks(result.rows, marks, mark_query)
    if marks.pinned or marks.tags:  # else no row changes: most users mark nothing
        rows = [_marked(row, marks) for row in rows]
    result.rows = rows
    return result


def _marked(row: CatalogRow, marks: Marks) -> CatalogRow:
    session_id = row.summary.id
    pinned, tags = marks.is_pinned(session_id), marks.tags_of(session_id)
    if not pinned and not tags:
        return row
    own = {field.name: getattr(row, field.name) for field in fields(row)}  # whatever it holds
    return MarkedRow(**own, pinned=pinned, tags=tags)
