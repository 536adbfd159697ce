"""Search over `/tree` rows as Pi's: every whitespace-separated token, case-insensitively, in
the row's searchable text (Pi's getSearchableText: label, role, content, command...).

The first search of a large session reads every row's line: it is done once, under a lock
(searches typed in quick succession wait for it rather than repeat it), and the texts are
kept until the rows change. A query that only adds to the last one (typing on) looks only
among the last matches."""

from __future__ import annotations

import threading

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import JS_SPACE_RUN
from pitui.core.rows.row import Row
from pitui.core.rows.row_text import searchable_text
from pitui.core.rows.search_line import line_searchable_text
from pitui.core.session.collector import collector_paused
from pitui.core.session.prefetch import each_line


class RowSearch:
    """The search of one `TreeRows`: `version` is its count of row changes, which tells when
    the prepared texts and the last matches no longer fit its rows."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._texts: tuple[int, list[str]] | None = None  # (version, each row's search text)
        self._last: tuple[int, list[str], list[int]] | None = None  # (version, tokens, found)

    def prepare(self, rows: list[Row], version: int) -> list[str]:
        """Each row's search text (lowercased), worked out once for this version."""
        with self._lock:
            texts = self._texts
            if texts is None or texts[0] != version:
                prepare_search(rows)
                texts = self._texts = (version, [row.search_text() for row in rows])
            return texts[1]

    def search(self, rows: list[Row], version: int, text: str) -> list[int]:
        """Indices of the `rows` whose search text holds every token of `text`."""
        tokens = [token for token in JS_SPACE_RUN.split(text.lower()) if token]
        if not tokens:
            return []
        texts = self.prepare(rows, version)
        last = self._last
        found: list[int] | range = range(len(texts))
        if last is not None and last[0] == version and narrows(last[1], tokens):
            found = last[2]
        for token in tokens:
            found = [i for i in found if token in texts[i]]
        self._last = (version, tokens, list(found))
        return list(found)


def narrows(old: list[str], new: list[str]) -> bool:
    """Whether every row matching `new` tokens matches `old` ones: each old token is part of
    a new one (typing on adds letters or tokens)."""
    return all(any(token in longer for longer in new) for token in old)


def prepare_search(rows: list[Row]) -> None:
    """What search looks in, for every row, from a few large reads of their lines; a message
    line is read only for what search needs of it."""
    pending = {id(r.entry): r for r in rows if r._search is None}
    message = EntryType.MESSAGE  # bound once: the test runs per row
    with collector_paused():
        for entry, line in each_line(row.entry for row in pending.values()):
            if line is None:
                text = searchable_text(entry, entry.raw)
            else:  # a message line read only for what search needs, if it can be
                read = line_searchable_text(entry, line) if entry.type == message else None
                text = read if read is not None else searchable_text(entry, entry.raw_of_line(line))
            pending[id(entry)]._search = text.lower()
