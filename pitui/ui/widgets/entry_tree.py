"""EntryTree: a line-API view of a session tree (Pi's /tree) that scales to 100k entries.

Only visible lines are rendered, from `pitui.core.rows.rows.TreeRows`. Session text is built into
`rich.text.Text` with `append` (never markup) and has gone through `one_line` already.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from pitui.core.rows.row import Row
from pitui.core.rows.rows import TreeRows
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.widget_message import WidgetMessage

_STYLE_CLASSES = {
    "guide": "entry-tree--guide",
    "fold": "entry-tree--fold",
    "active": "entry-tree--active",
    "label": "entry-tree--label",
    "user": "entry-tree--user",
    "assistant": "entry-tree--assistant",
    "custom": "entry-tree--custom",
    "warning": "entry-tree--warning",
    "compaction": "entry-tree--compaction",
    "muted": "entry-tree--muted",
    "dim": "entry-tree--dim",
    "error": "entry-tree--error",
}


_NOTHING = object()  # no entry highlighted (as opposed to an entry whose id is None)


class EntryTree(ScrollView, can_focus=True):
    """Rows of a session tree with a cursor, folding, filters and search."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False, id="session.up"),
        Binding("down", "cursor(1)", "Down", show=False, id="session.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="session.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="session.page_down"),
        Binding("left", "page(-1)", "Page up", show=False, id="session.page_left"),
        Binding("right", "page(1)", "Page down", show=False, id="session.page_right"),
        Binding("home,g", "first", "Top", show=False, id="session.first"),
        Binding("end,G", "last", "Bottom", show=False, id="session.last"),
        Binding(
            "ctrl+left,alt+left",
            "segment('up')",
            "Fold / up",
            show=False,
            id="session.fold_up",
            tooltip="Fold the branch or go up a branch",
        ),
        Binding(
            "ctrl+right,alt+right",
            "segment('down')",
            "Unfold / down",
            show=False,
            id="session.unfold_down",
            tooltip="Unfold the branch or go down a branch",
        ),
        Binding(
            "z",
            "fold_all",
            "Fold all",
            show=False,
            id="session.fold_all",
            tooltip="Fold every branch",
        ),
        Binding(
            "Z",
            "unfold_all",
            "Unfold all",
            show=False,
            id="session.unfold_all",
            tooltip="Unfold every branch",
        ),
        Binding(
            "ctrl+d",
            "filter('default')",
            "Default",
            show=False,
            id="session.filter_default",
            tooltip="Filter: default view",
        ),
        Binding(
            "ctrl+t",
            "filter('no-tools')",
            "No tools",
            show=False,
            id="session.filter_no_tools",
            tooltip="Filter: no tool results (again: default)",
        ),
        Binding(
            "ctrl+u",
            "filter('user-only')",
            "User only",
            show=False,
            id="session.filter_user",
            tooltip="Filter: user messages only (again: default)",
        ),
        Binding(
            "ctrl+l",
            "filter('labeled-only')",
            "Labeled only",
            show=False,
            id="session.filter_labeled",
            tooltip="Filter: labeled entries only (again: default)",
        ),
        Binding(
            "ctrl+a",
            "filter('all')",
            "All entries",
            show=False,
            id="session.filter_all",
            tooltip="Filter: every entry (again: default)",
        ),
        Binding(
            "ctrl+o",
            "cycle_filter(1)",
            "Filter",
            id="entry_tree.filter",
            tooltip="Cycle the filter",
        ),
        Binding(
            "ctrl+shift+o",
            "cycle_filter(-1)",
            "Filter back",
            show=False,
            id="session.filter_back",
            tooltip="Cycle the filter backwards",
        ),
        Binding(
            "slash", "request_search", "Search", id="entry_tree.search", tooltip="Search the tree"
        ),
        Binding(
            "n",
            "match(1)",
            "Next match",
            show=False,
            id="session.next_match",
            tooltip="Next search match",
        ),
        Binding(
            "N",
            "match(-1)",
            "Previous match",
            show=False,
            id="session.previous_match",
            tooltip="Previous search match",
        ),
        Binding(
            "l",
            "leaf",
            "Active leaf",
            id="entry_tree.leaf",
            show=False,
            tooltip="Go to the active leaf",
        ),
        Binding(
            "T,shift+t",
            "toggle_label_times",
            "Label times",
            show=False,
            id="session.label_times",
            tooltip="Show or hide label times",
        ),
        Binding("enter", "select", "Select", show=False, id="session.select"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "entry-tree--cursor",
        "entry-tree--match",
        *_STYLE_CLASSES.values(),
    }
    DEFAULT_CSS = """
    EntryTree { background: $surface; }
    EntryTree > .entry-tree--cursor { background: $accent 20%; text-style: bold; }
    EntryTree:focus > .entry-tree--cursor { background: $accent 35%; }
    EntryTree > .entry-tree--match { background: $warning 25%; }
    EntryTree > .entry-tree--guide { color: $text-muted; }
    EntryTree > .entry-tree--fold { color: $accent; }
    EntryTree > .entry-tree--active { color: $accent; }
    EntryTree > .entry-tree--label { color: $warning; }
    EntryTree > .entry-tree--user { color: $accent; }
    EntryTree > .entry-tree--assistant { color: $success; }
    EntryTree > .entry-tree--custom { color: $secondary; }
    EntryTree > .entry-tree--warning { color: $warning; }
    EntryTree > .entry-tree--compaction { color: $primary; }
    EntryTree > .entry-tree--muted { color: $text-muted; }
    EntryTree > .entry-tree--dim { color: $text-muted; }
    EntryTree > .entry-tree--error { color: $error; }
    """

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

    class SearchRequested(WidgetMessage):
        """`/` or a printable key the tree does not use was pressed: the screen should show a
        search input starting with `text` and call `show_matches()` with its answer."""

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
        self.cursor = 0
        self._filter = filter
        self._query = ""
        self._matches: list[int] = []  # model row indices matching the search
        self._match_set: set[int] = set()
        self._view_rows: list[Row] | None = None  # while searching: only the matching rows
        self._typed: str | None = None  # keys typed since the search was asked for
        self._last_posted: object = _NOTHING
        self._strips: LRUCache[tuple[int, int, bool], Strip] = LRUCache(1024)
        if tree is not None:
            self.load(tree)

    # -- data -----------------------------------------------------------------------------
    @property
    def rows(self) -> list[Row]:
        """The rows shown: while a search is active only its matches, as in Pi's /tree."""
        if self._view_rows is not None:
            return self._view_rows
        return self.model.rows if self.model else []

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

    def move_to_entry(self, entry_id: str | None) -> None:
        """Highlight this entry's row, or its nearest shown ancestor's."""
        if self.model is not None:
            self.move_to(self._to_view(self.model.nearest_index(entry_id)))

    @property
    def filter(self) -> str:
        return self.model.filter if self.model else self._filter

    @property
    def highlighted(self) -> Entry | None:
        rows = self.rows
        return rows[self.cursor].entry if 0 <= self.cursor < len(rows) else None

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
        self.call_after_refresh(self._scroll_to_cursor, True)

    def append(self, entries: list[Entry]) -> None:
        """After `tree.extend(entries)`: keep the highlighted entry, or follow the end if the
        cursor was on the last row."""
        if self.model is None:
            return
        following = self.cursor >= len(self.rows) - 1
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

    # -- search ---------------------------------------------------------------------------
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

    # -- cursor ---------------------------------------------------------------------------
    def move_to(self, index: int) -> None:
        rows = self.rows
        if not rows:
            return
        index = max(0, min(index, len(rows) - 1))
        old, self.cursor = self.cursor, index
        self.refresh_line(old)
        self.refresh_line(index)
        self._scroll_to_cursor()
        self._post_highlighted()

    def _scroll_to_cursor(self, center: bool = False) -> None:
        region = Region(0, self.cursor, 1, 1)
        self.scroll_to_region(region, animate=False, force=True, center=center, immediate=True)

    def _post_highlighted(self) -> None:
        entry = self.highlighted
        key = entry.id if entry is not None else _NOTHING
        if key != self._last_posted:
            self._last_posted = key
            self.post_message(self.Highlighted(self, entry))

    def _after_change(self, cursor: int, *, scroll: bool = True, research: bool = True) -> None:
        """The rows changed: highlight the row of model index `cursor` (or the match after)."""
        self._invalidate()
        if self._query and self.model and research:
            self._matches = self.model.search(self._query)
            self._match_set = set(self._matches)
        self._set_view()
        self.virtual_size = Size(self.size.width, len(self.rows))
        self.cursor = max(0, min(self._to_view(cursor), len(self.rows) - 1))
        self.refresh()
        if scroll:
            self._scroll_to_cursor()
        self._post_highlighted()

    def _invalidate(self) -> None:
        self._strips.clear()
        self.refresh()

    # -- actions --------------------------------------------------------------------------
    def action_cursor(self, step: int) -> None:
        self.move_to(self.cursor + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor + step * max(1, self.scrollable_content_region.height))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self.rows) - 1)

    def action_fold_or_parent(self) -> None:
        """Fold an unfolded branch; on a folded or unfoldable row go to the parent row."""
        row = self._row()
        if row is None or self.model is None:
            return
        if row.foldable and not row.folded and self.model.fold(row.entry.id):
            self._after_change(self.model.index_of(row.entry.id) or 0)
            return
        parent = self.model.parent_index(self._model_cursor())
        if parent is not None:
            self.move_to(self._to_view(parent))

    def action_unfold_or_child(self) -> None:
        """Unfold a folded row; otherwise go to its first child row."""
        row = self._row()
        if row is None or self.model is None:
            return
        if row.folded and self.model.unfold(row.entry.id):
            self._after_change(self.model.index_of(row.entry.id) or 0)
        elif row.kids:
            self.move_to(self.cursor + 1)

    def action_segment(self, direction: str) -> None:
        """Pi's Ctrl+Left / Ctrl+Right: fold or go up a branch, unfold or go down one."""
        row = self._row()
        if row is None or self.model is None:
            return
        if direction == "up" and row.foldable and not row.folded:
            self.action_fold_or_parent()
        elif direction == "down" and row.folded:
            self.action_unfold_or_child()
        else:
            self.move_to(self._to_view(self.model.segment_start(self._model_cursor(), direction)))

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

    def action_request_search(self) -> None:
        self.post_message(self.SearchRequested(self, self._query))

    def on_key(self, event: events.Key) -> None:
        """As in Pi's /tree, typing searches: a printable key no binding uses starts it, and
        every printable key that arrives before the search box has the focus goes on it."""
        if not (event.is_printable and event.character):
            return
        if self._typed is None and event.key in self.screen.active_bindings:
            return
        event.stop()
        event.prevent_default()
        self._typed = (self._query if self._typed is None else self._typed) + event.character
        self.post_message(self.SearchRequested(self, self._typed))

    def action_match(self, step: int) -> None:
        self._step_match(step)

    def action_leaf(self) -> None:
        if self.model is not None and self.model.tree.leaf is not None:
            self.move_to_entry(self.model.tree.leaf.id)

    def action_select(self) -> None:
        entry = self.highlighted
        if entry is not None:
            self.post_message(self.Selected(self, entry))

    def _row(self) -> Row | None:
        rows = self.rows
        return rows[self.cursor] if 0 <= self.cursor < len(rows) else None

    # -- events ---------------------------------------------------------------------------
    def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            index = offset.y + self.scroll_offset.y
            if 0 <= index < len(self.rows):
                self.move_to(index)

    def on_blur(self) -> None:
        self._typed = None  # the search box has the keys now

    def on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self.virtual_size = Size(event.size.width, len(self.rows))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    # -- rendering ------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, self.rich_style)
        key = (index, width, index == self.cursor)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._render_row(index, width, index == self.cursor)
            self._strips[key] = strip
        return strip

    def _render_row(self, index: int, width: int, is_cursor: bool) -> Strip:
        text = self._row_text(self.rows[index], width)
        base = self.rich_style
        if is_cursor:
            base = base + self.get_component_rich_style("entry-tree--cursor")
        text.truncate(width, overflow="ellipsis", pad=True)
        text.stylize_before(base)  # after the padding: no trailing cell without the row's bg
        segments = list(text.render(self.app.console))
        return Strip(segments).crop_extend(0, width, base).simplify()

    def _row_text(self, row: Row, width: int) -> Text:
        text = Text(no_wrap=True, end="")
        for part, key in row.parts():
            if key == "guide" and len(part) > max(8, width // 2):
                part = "…" + part[-(max(8, width // 2) - 1) :]  # very deep: keep the end
            text.append(part, self._style(key))
        return text

    def _style(self, key: str) -> Style | None:
        """A part's colour and text style without a background (the row's shows). Not
        `partial=True`: that cannot blend a translucent colour such as $text-muted."""
        name = _STYLE_CLASSES.get(key)
        if not name:
            return None
        full = self.get_component_rich_style(name)
        return Style(color=full.color, bold=full.bold, dim=full.dim, italic=full.italic)
