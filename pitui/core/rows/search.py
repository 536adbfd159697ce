"""Search over `/tree` rows as Pi's: every whitespace-separated token, case-insensitively, in
the row's searchable text (Pi's getSearchableText: label, role, content, command...)."""

from __future__ import annotations

from pitui.core.format.jsvalues import JS_SPACE_RUN
from pitui.core.rows.row import Row
from pitui.core.rows.row_text import searchable_text
from pitui.core.session.prefetch import each_line


def search_rows(rows: list[Row], text: str) -> list[int]:
    """Indices of the `rows` whose searchable text holds every token of `text`."""
    tokens = [token for token in JS_SPACE_RUN.split(text.lower()) if token]
    if not tokens:
        return []
    prepare_search(rows)
    found = []
    for index, row in enumerate(rows):
        haystack = row.search_text()
        if all(token in haystack for token in tokens):
            found.append(index)
    return found


def prepare_search(rows: list[Row]) -> None:
    """What search looks in, for every row, from a few large reads of their lines."""
    pending = {id(r.entry): r for r in rows if r._search is None}
    for entry, line in each_line(row.entry for row in pending.values()):
        raw = entry.raw if line is None else entry.raw_of_line(line)
        pending[id(entry)]._search = searchable_text(entry, raw).lower()
