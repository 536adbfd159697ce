"""Search in the entry tree as in Pi's /tree: typing searches (the tree keeps the focus, so
every key lands in the order typed), only the matching rows show, Ctrl+N / Ctrl+P step
through them. The rows shown (`EntryTree.rows`) are then the matches, and
`cursor` indexes them; `_to_view` and `_model_cursor` map between them and the model's rows.

An `EntryTree` mixin: the state it uses is made in `EntryTree.__init__`, and `rows`,
`highlighted`, `move_to` and `_after_change` are `EntryTree`'s.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from textual import events

from pitui.core.rows.row import Row
from pitui.core.rows.rows import TreeRows
from pitui.core.session.entry import Entry
from pitui.ui.widgets.search_box import run_binding_now, types_text


class SearchesRows:
    """The search of `EntryTree`: what it shows while a query is active, and how it starts."""

    model: TreeRows | None
    cursor: int
    _query: str
    _matches: list[int]  # model row indices matching the search
    _match_set: set[int]
    _view_rows: list[Row] | None  # while searching: only the matching rows
    typed: str  # the search as typed (the rows shown may still answer an older one)
    rows: list[Row]
    highlighted: Entry | None
    move_to: Callable[[int], None]
    _after_change: Callable[..., None]
    # Textual's, from the widget
    SearchTyped: Any
    post_message: Any
    screen: Any

    @property
    def query(self) -> str:
        return self._query

    def _to_view(self, index: int | None) -> int:
        """A model row index as the index of the row shown at or after it."""
        index = index or 0
        if self._view_rows is None:
            return index
        return min(bisect_left(self._matches, index), max(0, len(self._matches) - 1))

    def _model_cursor(self) -> int:
        if self._view_rows is None:
            return self.cursor
        return self._matches[self.cursor] if 0 <= self.cursor < len(self._matches) else 0

    def _set_view(self) -> None:
        model_rows = self.model.rows if self.model else []
        if self._query:
            self._view_rows = [model_rows[i] for i in self._matches]
        else:
            self._view_rows = None

    def search(self, text: str) -> int:
        """Show only the rows matching `text`; highlight the first at or after the cursor."""
        return self.show_matches(text, self.model.search(text) if self.model else [])

    def show_matches(self, text: str, matches: list[int]) -> int:
        """Show only `matches` (model row indices found for `text`, e.g. by a thread worker;
        Pi's tokens AND-ed over its searchable text); "" shows every row again."""
        kept = self.highlighted
        self._query = text
        rows = self.model.rows if self.model else []
        self._matches = [i for i in matches if i < len(rows)] if text else []
        self._match_set = set(self._matches)
        self._set_view()
        model_cursor = self._nearest_shown(kept)
        self._after_change(model_cursor, research=False)
        return len(self._matches)

    def _nearest_shown(self, entry: Entry | None) -> int:
        """As Pi's /tree: the model index of this entry's row or of its nearest shown
        ancestor's; else the last row shown."""
        if self.model is None or entry is None:
            return 0
        if not self._query:
            return self.model.nearest_index(entry.id) or 0
        for ancestor in reversed(self.model.tree.path_to(entry.id)):
            index = self.model.index_of(ancestor.id)
            if index is not None and index in self._match_set:
                return index
        return self._matches[-1] if self._matches else 0

    def next_match(self) -> None:
        self._step_match(1)

    def previous_match(self) -> None:
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        """The next / previous match, wrapping (every row shown is a match)."""
        if self._query and self.rows:
            self.move_to((self.cursor + step) % len(self.rows))

    def clear_search(self) -> None:
        self.typed = ""
        self.show_matches("", [])

    def type_search(self, text: str) -> None:
        """The search is now `text`: the screen searches and calls `show_matches()`."""
        self.typed = text
        self.post_message(self.SearchTyped(self, text))

    async def on_key(self, event: events.Key) -> None:
        """As in Pi's /tree: a key that types and that no binding uses (Pi's own Shift+L and
        Shift+T, or a user's remap) goes on the search; Backspace takes its last character.
        Bound keys run here, in the order typed."""
        if await run_binding_now(self, event):  # type: ignore[arg-type]
            return
        if types_text(event):
            self.type_search(self.typed + (event.character or ""))
        elif event.key == "backspace" and self.typed:
            self.type_search(self.typed[:-1])
        else:
            return
        event.stop()
        event.prevent_default()

    def action_match(self, step: int) -> None:
        self._step_match(step)
