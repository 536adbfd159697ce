"""EntryTree: a line-API view of a session tree (Pi's /tree) that scales to 100k entries.

Only visible lines are drawn, by a `RowRenderer` (`entry_tree_render.py`), from
`pitui.core.rows.rows.TreeRows`. Search as in Pi's /tree: typing searches (the tree keeps the
focus, so every key lands in the order typed), only the matching rows show (a `TreeSearch`,
`entry_tree_search.py`), Ctrl+N / Ctrl+P step through them. A session opened from the
picker's search shows every row instead, its matches marked (`mark_matches`). Its keys:
`entry_tree_keys.py`.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import events
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from pitui.core.rows.row import Row
from pitui.core.rows.rows import TreeRows
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.cursor_list import CursorList
from pitui.ui.widgets.entry_tree_keys import ENTRY_TREE_BINDINGS
from pitui.ui.widgets.entry_tree_render import (
    COMPONENT_CLASSES,
    ENTRY_TREE_CSS,
    STYLE_CLASSES,
    RowRenderer,
)
from pitui.ui.widgets.entry_tree_search import TreeSearch
from pitui.ui.widgets.search_box import run_binding_now, types_text
from pitui.ui.widgets.widget_message import WidgetMessage

_STYLE_CLASSES = STYLE_CLASSES  # the name tests/ui/test_contrast.py knows


class EntryTree(CursorList[Row], can_focus=True):
    """Rows of a session tree with a cursor, folding, filters and search."""

    BINDINGS: ClassVar[list[BindingType]] = ENTRY_TREE_BINDINGS
    CLICK_SELECTS = "never"
    COMPONENT_CLASSES: ClassVar[set[str]] = COMPONENT_CLASSES
    DEFAULT_CSS = ENTRY_TREE_CSS

    class Highlighted(WidgetMessage):
        """The cursor moved to another entry (None: no row left, e.g. a filter matches none)."""

        def __init__(self, entry_tree: EntryTree, entry: Entry | None) -> None:
            super().__init__(entry_tree)
            self.entry = entry

    class Selected(WidgetMessage):
        """Enter was pressed on an entry."""

        def __init__(self, entry_tree: EntryTree, entry: Entry) -> None:
            super().__init__(entry_tree)
            self.entry = entry

    class FilterChanged(WidgetMessage):
        def __init__(self, entry_tree: EntryTree, filter: str) -> None:
            super().__init__(entry_tree)
            self.filter = filter

    class LabelTimesToggled(WidgetMessage):
        def __init__(self, entry_tree: EntryTree, shown: bool) -> None:
            super().__init__(entry_tree)
            self.shown = shown

    class SearchTyped(WidgetMessage):
        """The search typed is now `text` ("": none): the screen shows it, searches, and calls
        `show_matches()` with the answer."""

        def __init__(self, entry_tree: EntryTree, text: str = "") -> None:
            super().__init__(entry_tree)
            self.text = text

    def __init__(
        self,
        tree: SessionTree | None = None,
        *,
        filter: str = "default",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.model: TreeRows | None = None
        self._filter = filter
        self._search = TreeSearch()
        self._kept: Entry | None = None  # the entry last highlighted: a search may show none
        self.renderer = RowRenderer(self)
        self._centring = False  # the cursor's row is centred once the tree is laid out
        if tree is not None:
            self.load(tree)

    # -- data -----------------------------------------------------------------------------
    @property
    def rows(self) -> list[Row]:
        """The rows shown: while a search is active only its matches, as in Pi's /tree."""
        if self._search.view_rows is not None:
            return self._search.view_rows
        return self.model.rows if self.model else []

    def move_to_entry(self, entry_id: str | None) -> None:
        """Highlight this entry's row, or its nearest shown ancestor's."""
        if self.model is not None:
            self.move_to(self._search.to_view(self.model.nearest_index(entry_id)))

    @property
    def filter(self) -> str:
        return self.model.filter if self.model else self._filter

    @property
    def highlighted(self) -> Entry | None:
        row = self.highlighted_row
        return row.entry if row is not None else None

    def load(self, tree: SessionTree, rows: TreeRows | None = None) -> None:
        """Show a tree, cursor on its active leaf (as Pi's /tree opens). `rows`: the tree's
        rows under this widget's filter, built in a worker (building them is O(n))."""
        label_times = self.label_times
        if rows is not None and rows.tree is tree and rows.filter == self.filter:
            rows.catch_up()
        else:
            rows = TreeRows(tree, self.filter)
        self.model = rows
        self.model.label_times = label_times
        self._after_change(self.model.nearest_index(tree.leaf.id if tree.leaf else None) or 0)
        self._centre_cursor_when_laid_out()

    def append(self, entries: list[Entry]) -> None:
        """After `tree.extend(entries)`: keep the highlighted entry, or follow the end if the
        cursor was on the last row."""
        if self.model is None:
            return
        following = self.cursor_line >= len(self.rows) - 1
        kept = self.highlighted
        model_cursor = self._model_cursor()
        changed = self.model.extend(entries)
        if changed is None:
            return
        if following:
            cursor = len(self.model.rows) - 1
        elif changed > model_cursor:
            cursor = model_cursor
        else:
            cursor = self.model.nearest_index(kept.id if kept else None) or 0
        self._after_change(cursor, scroll=following)

    def set_filter(self, mode: str) -> None:
        if self.model is None:
            self._filter = mode
            return
        kept = self.highlighted
        self.model.set_filter(mode)
        self._filter = mode
        self._after_change(self.model.nearest_index(kept.id if kept else None) or 0)
        self.post_message(self.FilterChanged(self, mode))

    # -- cursor ---------------------------------------------------------------------------
    def highlight_key(self) -> object:
        entry = self.highlighted
        return None if entry is None else ("entry", entry.id)  # an entry's id may be None

    def highlighted_message(self) -> Message:
        return self.Highlighted(self, self.highlighted)

    def _after_change(self, cursor: int, *, scroll: bool = True, research: bool = True) -> None:
        """The rows changed: highlight the row of model index `cursor` (or the match after)."""
        self._invalidate()
        if self.model and research:
            self._search.research(self.model)
        self._search.show(self.model.rows if self.model else [])
        self.virtual_size = Size(self.size.width, len(self.rows))
        cursor = self._search.to_view(cursor)
        if scroll:
            self.cursor_line = cursor
        else:
            self.set_reactive(EntryTree.cursor_line, self.validate_cursor_line(cursor))
            self.post_highlighted()

    def _invalidate(self) -> None:
        self.renderer.clear()
        self.refresh()

    # -- actions --------------------------------------------------------------------------
    def action_fold_or_parent(self) -> None:
        """Fold an unfolded branch; on a folded or unfoldable row go to the parent row."""
        row = self.highlighted_row
        if row is None or self.model is None:
            return
        if row.foldable and not row.folded and self.model.fold(row.entry.id):
            self._after_change(self.model.index_of(row.entry.id) or 0)
            return
        parent = self.model.parent_index(self._model_cursor())
        if parent is not None:
            self.move_to(self._search.to_view(parent))

    async def _on_click(self, event: events.Click) -> None:
        """A click on a row's fold sign (⊟, ⊞) folds or unfolds its branch; elsewhere it
        highlights the row, as in any list."""
        offset = event.get_content_offset(self)
        if offset is None or not self._fold_at(offset.x, offset.y + self.scroll_offset.y):
            await super()._on_click(event)

    def _fold_at(self, x: int, index: int) -> bool:
        """Fold or unfold the branch of row `index` if column `x` is its fold sign."""
        if self.model is None or not 0 <= index < len(self.rows):
            return False
        row = self.rows[index]
        signs = row.guide + row.fold_marker
        if x != max(signs.rfind("⊟"), signs.rfind("⊞")):
            return False
        self.move_to(index)
        toggle = self.model.unfold if row.folded else self.model.fold
        if toggle(row.entry.id):
            self._after_change(self.model.index_of(row.entry.id) or 0)
        return True

    def action_unfold_or_child(self) -> None:
        """Unfold a folded row; otherwise go to its first child row."""
        row = self.highlighted_row
        if row is None or self.model is None:
            return
        if row.folded and self.model.unfold(row.entry.id):
            self._after_change(self.model.index_of(row.entry.id) or 0)
        elif row.kids:
            self.move_to(self.cursor_line + 1)

    def action_segment(self, direction: str) -> None:
        """Pi's Ctrl+Left / Ctrl+Right: fold or go up a branch, unfold or go down one."""
        row = self.highlighted_row
        if row is None or self.model is None:
            return
        if direction == "up" and row.foldable and not row.folded:
            self.action_fold_or_parent()
        elif direction == "down" and row.folded:
            self.action_unfold_or_child()
        else:
            start = self.model.segment_start(self._model_cursor(), direction)
            self.move_to(self._search.to_view(start))

    def action_fold_all(self) -> None:
        self._refold(self.model.fold_all if self.model else None)

    def action_unfold_all(self) -> None:
        self._refold(self.model.unfold_all if self.model else None)

    def _refold(self, change: object) -> None:
        kept = self.highlighted
        if self.model is not None and callable(change) and change():
            self._after_change(self.model.nearest_index(kept.id if kept else None) or 0)

    def action_cycle_filter(self, step: int) -> None:
        if self.model is not None:
            modes = self.model
            kept = self.highlighted
            mode = modes.cycle_filter(step)
            self._filter = mode
            self._after_change(modes.nearest_index(kept.id if kept else None) or 0)
            self.post_message(self.FilterChanged(self, mode))

    def action_filter(self, mode: str) -> None:
        """Pi's direct filter keys: a mode's key toggles it with the default view."""
        current = self.filter
        target = "default" if mode == current and mode != "default" else mode
        if target != current:
            self.set_filter(target)

    @property
    def label_times(self) -> bool:
        return self.model is not None and self.model.label_times

    def action_toggle_label_times(self) -> None:
        if self.model is not None:
            self.model.label_times = not self.model.label_times
            self._invalidate()
            self.post_message(self.LabelTimesToggled(self, self.model.label_times))

    def action_leaf(self) -> None:
        """The active leaf, its folded branches unfolded (it stopped on the fold)."""
        if self.model is not None and self.model.tree.leaf is not None:
            leaf = self.model.tree.leaf.id
            self._refold(partial(self.model.unfold_to, leaf))
            self.move_to_entry(leaf)

    def action_select(self) -> None:
        entry = self.highlighted
        if entry is not None:
            self.post_message(self.Selected(self, entry))

    def _model_cursor(self) -> int:
        """The model row index of the row under the cursor."""
        return self._search.to_model(self.cursor_line)

    # -- search ---------------------------------------------------------------------------
    @property
    def search_text(self) -> str:
        """The search the rows shown answer ("": none)."""
        return self._search.query

    @property
    def typed(self) -> str:
        """The search as typed (the rows shown may still answer an older one)."""
        return self._search.typed

    def search(self, text: str) -> int:
        """Show only the rows matching `text`; highlight the first at or after the cursor."""
        return self.show_matches(text, self.model.search(text) if self.model else [])

    @property
    def marking(self) -> bool:
        """The search's matches are marked among every row (opened from a search)."""
        return self._search.marking

    def mark_matches(self, text: str, matches: list[int]) -> int:
        """Mark `matches` (model row indices found for `text`) among every row, as a session
        opened from the picker's search shows; the cursor on the first. Typing in the tree
        then searches afresh, and shows only what matches, as in Pi's /tree."""
        self._search.typed = ""
        self._search.set(text, matches, self.model.rows if self.model else [], marking=True)
        found = self._search.matches
        self._after_change(found[0] if found else self._model_cursor(), research=False)
        self._centre_cursor_when_laid_out()
        return len(found)

    def match_position(self) -> tuple[int, int]:
        """Pi's counter while searching, (highlighted, shown); while marking, (matches up to
        the cursor, matches)."""
        if self._search.marking:
            return self._search.position(self.cursor_line), len(self._search.matches)
        shown = len(self.rows)
        return (self.cursor_line + 1 if shown else 0), shown

    def show_matches(self, text: str, matches: list[int]) -> int:
        """Show only `matches` (model row indices found for `text`, e.g. by a thread worker;
        Pi's tokens AND-ed over its searchable text); "" shows every row again."""
        # as Pi's /tree: a search showing no row keeps the entry to come back to
        kept = self.highlighted or self._kept
        self._search.set(text, matches, self.model.rows if self.model else [])
        self._after_change(self._search.nearest_shown(self.model, kept), research=False)
        self._kept = self.highlighted or kept
        return len(self._search.matches)

    def next_match(self) -> None:
        self.action_match(1)

    def previous_match(self) -> None:
        self.action_match(-1)

    def action_match(self, step: int) -> None:
        """The next / previous match, wrapping (every row shown is a match, unless marking)."""
        if self._search.marking:
            target = self._search.step(self._model_cursor(), step)
            if target is not None:
                self.move_to(target)  # every row is shown: a model index is a row's
        elif self._search.query and self.rows:
            self.move_to((self.cursor_line + step) % len(self.rows))

    def clear_search(self) -> None:
        self._search.typed = ""
        self.action_unfold_all()  # as Pi's /tree at every change of its search
        self.show_matches("", [])

    def type_search(self, text: str) -> None:
        """The search is now `text`: the screen searches and calls `show_matches()`. The
        folds are cleared first, as Pi's /tree does at every edit of its search: a match in
        a folded branch was not found ("(0/0)")."""
        self._search.typed = text
        self.action_unfold_all()
        self.post_message(self.SearchTyped(self, text))

    def action_cursor(self, step: int) -> None:
        """Up / Down: past either end to the other, as in Pi's /tree."""
        if self.rows:
            self.move_to((self.cursor_line + step) % len(self.rows))

    # -- events ---------------------------------------------------------------------------
    async def on_key(self, event: events.Key) -> None:
        """As in Pi's /tree: a key that types and that no binding uses (Pi's own Shift+L and
        Shift+T, or a user's remap) goes on the search; Backspace takes its last character.
        Bound keys run here, in the order typed."""
        if await run_binding_now(self, event):
            return
        if types_text(event):
            self.type_search(self.typed + (event.character or ""))
        elif event.key == "backspace" and self.typed:
            self.type_search(self.typed[:-1])
        else:
            return
        event.stop()
        event.prevent_default()

    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, self.rich_style)
        marked = self._search.is_match(index)  # while marking, every row shows: index = model's
        return self.renderer.line(self.rows, index, width, index == self.cursor_line, marked)

    def on_resize(self, event: events.Resize) -> None:
        self.renderer.clear()
        self.virtual_size = Size(event.size.width, len(self.rows))
        if self._centring:
            self._centre_cursor()
        else:
            self.scroll_to_cursor()

    def _centre_cursor_when_laid_out(self) -> None:
        """Centre the cursor's row now, or once the tree has its size: a session opened (or
        loaded) before its screen's layout otherwise showed its top, the cursor out of view."""
        self._centring = True
        self.call_after_refresh(self._centre_cursor)

    def _centre_cursor(self) -> None:
        if self._centring and self.scrollable_content_region.height > 0:
            self._centring = False
            self.scroll_to_cursor(center=True)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.renderer.clear()
