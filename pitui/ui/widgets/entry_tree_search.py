"""The entry tree's search as in Pi's /tree: while a query typed in the tree is active only its
matching rows show, and the cursor indexes them. `TreeSearch` holds the query, its matches and
the rows shown, and maps row indices between the view and the model's rows (`TreeRows`).

A session opened from the picker's search has its matches *marked* instead: every row shows
(and what is appended to it), the matching ones marked, the next/previous-match keys step
through them."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

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
        self.view_rows: list[Row] | None = None  # while filtering: only the matching rows
        self.marking = False  # the matches are marked among every row, not the only ones shown

    def set(
        self, text: str, matches: list[int], model_rows: list[Row], *, marking: bool = False
    ) -> None:
        """`matches` (model row indices found for `text`) are now the rows shown (or, when
        `marking`, marked among every row); "" shows every row again."""
        self.query = text
        self.marking = marking and bool(text)
        self.matches = [i for i in matches if i < len(model_rows)] if text else []
        self._match_set = set(self.matches)
        self.show(model_rows)

    def is_match(self, model_index: int) -> bool:
        """A marked match (only while marking: a filtered view shows nothing else)."""
        return self.marking and model_index in self._match_set

    def step(self, model_index: int, step: int) -> int | None:
        """While marking: the model index of the next (step 1) or previous (-1) match after
        `model_index`, wrapping; None if there is none."""
        if not self.matches:
            return None
        if step > 0:
            after = bisect_right(self.matches, model_index)
            return self.matches[after % len(self.matches)]
        before = bisect_left(self.matches, model_index) - 1
        return self.matches[before % len(self.matches)]

    def position(self, model_index: int) -> int:
        """While marking: how many matches are at or before `model_index` (1 on the first)."""
        return bisect_right(self.matches, model_index)

    def research(self, model: TreeRows) -> None:
        """The model's rows changed (fold, filter, append): search them again."""
        if self.query:
            self.matches = model.search(self.query)
            self._match_set = set(self.matches)

    def show(self, model_rows: list[Row]) -> None:
        """The rows shown, from the model's current rows."""
        filtering = self.query and not self.marking
        self.view_rows = [model_rows[i] for i in self.matches] if filtering else None

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
        if not self.query or self.marking:
            return model.nearest_index(entry.id) or 0
        for ancestor in reversed(model.tree.path_to(entry.id)):
            index = model.index_of(ancestor.id)
            if index is not None and index in self._match_set:
                return index
        return self.matches[-1] if self.matches else 0
