"""How the entry tree draws a row: one `Strip` per visible line, cached, from the row's parts
(`Row.parts()`) styled by the widget's component classes.

Session text is appended to `rich.text.Text` (never markup) and has gone through `one_line`
already.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.strip import Strip
from textual.widget import Widget

from pitui.core.rows.row import Row
from pitui.ui.display_text import in_text_colour

STYLE_CLASSES = {
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
COMPONENT_CLASSES = {"entry-tree--cursor", "entry-tree--match", *STYLE_CLASSES.values()}
ENTRY_TREE_CSS = """
    EntryTree { background: $surface; overflow-x: hidden; }  /* rows are drawn to its width */
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


class RowRenderer:
    """Draws the rows of a widget (the entry tree) as its component classes colour them,
    caching each line's `Strip` until `clear()` (the rows, width or styles changed)."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._strips: LRUCache[tuple[int, int, bool, bool], Strip] = LRUCache(1024)

    def clear(self) -> None:
        self._strips.clear()

    def line(
        self, rows: list[Row], index: int, width: int, is_cursor: bool, is_match: bool = False
    ) -> Strip:
        """Row `index` of `rows`, `width` cells wide (`is_match`: a search's match, marked)."""
        key = (index, width, is_cursor, is_match)
        strip = self._strips.get(key)
        if strip is None:
            strip = self.render_row(rows[index], width, is_cursor, is_match)
            self._strips[key] = strip
        return strip

    def render_row(self, row: Row, width: int, is_cursor: bool, is_match: bool = False) -> Strip:
        widget = self._widget
        text = self._row_text(row, width)
        if is_cursor or is_match:
            in_text_colour(text)
        base = widget.rich_style
        if is_match:
            base = base + widget.get_component_rich_style("entry-tree--match")
        if is_cursor:
            base = base + widget.get_component_rich_style("entry-tree--cursor")
        text.truncate(width, overflow="ellipsis", pad=True)
        text.stylize_before(base)  # after the padding: no trailing cell without the row's bg
        segments = list(text.render(widget.app.console))
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
        name = STYLE_CLASSES.get(key)
        if not name:
            return None
        full = self._widget.get_component_rich_style(name)
        return Style(color=full.color, bold=full.bold, dim=full.dim, italic=full.italic)
