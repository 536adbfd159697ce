"""The entry tree's search as in Pi's /tree: while a query is active only its matching rows
show, and the cursor indexes them. `TreeSearch` holds the query, its matches and the rows
shown, and maps row indices between the view and the model's rows (`TreeRows`)."""

from __future__ import annotations

from bisect import bisect_left

from pitui.core.rows.row import Row
from pitui.core.rows.rows import TreeRows
from pitui.core.session.entry import Entry


class TreeSearch:
    """A search over a tree's rows; `view_rows` is None while none is active."""

    def __init__(self) -> None:
        self.query = ""  # the search the rows shown answer
        self.typed = ""  # the search as typed (the rows shown may still answer an older one)
        self.matches: list[int] = []  # model row indices matching the query
        self._match_set: set[int] = set()
        self.view_rows: list[Row] | None = None  # while searching: only the matching rows

    def set(self, text: str, matches: list[int], model_rows: list[Row]) -> None:
        """`matches` (model row indices found for `text`) are now the rows shown; "" shows
        every row again."""
        self.query = text
        self.matches = [i for i in matches if i < len(model_rows)] if text else []
        self._match_set = set(self.matches)
        self.show(model_rows)

    def research(self, model: TreeRows) -> None:
        """The model's rows changed (fold, filter, append): search them again."""
        if self.query:
            self.matches = model.search(self.query)
            self._match_set = set(self.matches)

    def show(self, model_rows: list[Row]) -> None:
        """The rows shown, from the model's current rows."""
        self.view_rows = [model_rows[i] for i in self.matches] if self.query else None

    def to_view(self, index: int | None) -> int:
        """A model row index as the index of the row shown at or after it."""
        index = index or 0
        if self.view_rows is None:
            return index
        return min(bisect_left(self.matches, index), max(0, len(self.matches) - 1))

    def to_model(self, cursor: int) -> int:
        """The model row index of the row shown at `cursor`."""
        if self.view_rows is None:
            return cursor
        return self.matches[cursor] if 0 <= cursor < len(self.matches) else 0

    def nearest_shown(self, model: TreeRows | None, entry: Entry | None) -> int:
        """As Pi's /tree: the model index of this entry's row or of its nearest shown
        ancestor's; else the last row shown."""
        if model is None or entry is None:
            return 0
        if not self.query:
            return model.nearest_index(entry.id) or 0
        for ancestor in reversed(model.tree.path_to(entry.id)):
            index = model.index_of(ancestor.id)
            if index is not None and index in self._match_set:
                return index
        return self.matches[-1] if self.matches else 0
