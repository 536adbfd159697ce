"""The picker's list of sessions: a line-API view of the catalog's rows (threaded forest).

`show_rows` only swaps the list of rows: each visible line is built when painted (rich
`Text` with `append`, never markup; session text through `one_line`) and its `Strip` kept
in a cache, so replacing 5,000 rows costs no more than replacing 10.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from pitui.core.catalog.search import MEASURES
from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.catalog.summary import SessionSummary
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.ui.display_text import (
    age,
    cost,
    human_size,
    in_text_colour,
    middle_ellipsis,
    tilde,
    to_datetime,
)
from pitui.ui.widgets.cursor_list import CursorList
from pitui.ui.widgets.widget_message import WidgetMessage

SESSION_WIDTH_MIN = 24
SESSION_WIDTH_LEAST = 8  # what the title keeps on the narrowest screen (no column beyond it)
TAGS_LEAST = 6  # a row's tags cut to this ("[urge…]") when the title needs the room
SESSION_WIDTH_WITH_PATHS = 32  # titles stay readable beside the path column
COUNT_WIDTH = 5
AGE_WIDTH = 4
MEASURE_WIDTH = 8  # "$1234.56", "999.9 KB"
CWD_WIDTH = 28
CWD_WIDE = 48  # the most a folder takes where the screen is wide (a third of it at most)
CWD_MIN = 10
PATH_WIDTH = 100
PATH_MIN = 16
GAP = 2  # spaces between columns (and 1 at each edge)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    width: int
    right: bool = False
    middle: bool = False  # too long: cut the middle (a path keeps its folder and file name)


class SessionTable(CursorList[CatalogRow], can_focus=False):
    """One line per session with a cursor and a fixed header line. It never takes the focus:
    as in Pi's selector, every key stays in the search box, which moves this cursor."""

    CLICK_SELECTS = "double"  # opening a session takes a new screen: a double-click or Enter

    HEADER_LINES = 1

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "session-table--header",
        "session-table--cursor",
        "session-table--guide",
        "session-table--name",
        "session-table--dim",
    }
    DEFAULT_CSS = """
    SessionTable { background: $surface; overflow-x: hidden; }
    SessionTable > .session-table--header { color: $text-muted; text-style: bold underline; }
    SessionTable > .session-table--cursor { background: $block-cursor-blurred-background; }
    SessionTable > .session-table--guide { color: $text-muted; }
    SessionTable > .session-table--name { color: $text-accent; text-style: bold; }
    SessionTable > .session-table--dim { color: $text-muted; }
    """

    class Highlighted(WidgetMessage):
        """The cursor moved to another session (None: the list is empty)."""

        def __init__(self, table: SessionTable, summary: SessionSummary | None) -> None:
            super().__init__(table)
            self.summary = summary

    class Selected(WidgetMessage):
        """Enter (or a click on the highlighted row): open this session."""

        def __init__(self, table: SessionTable, summary: SessionSummary | None) -> None:
            super().__init__(table)
            self.summary = summary

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.all_scope = False
        self.show_paths = False
        self.now: datetime | None = None
        self.home: str | None = None
        self.chosen = False  # the user moved the cursor since the question was asked
        self._longest_path = 0
        self._longest_cwd = 0
        self.measure: str | None = None  # the sort's measure ("cost", "size"), shown as a column
        self._strips: LRUCache[tuple[int, int, bool, bool], Strip] = LRUCache(512)

    # -- data -----------------------------------------------------------------------------
    def show_rows(
        self,
        rows: Sequence[CatalogRow],
        *,
        now: datetime,
        all_scope: bool,
        show_paths: bool,
        home: str | None = None,
        top: bool = False,
        removed: Collection[str] = (),
        again: bool = False,
    ) -> None:
        """Replace the rows. The first row is highlighted (as results stream in too) unless the
        user moved the cursor to a session since the question was asked (`top`: a new
        question), or the rows answer the question of those shown `again` (sessions changed):
        the highlighted session then stays highlighted while it is listed, whatever moved above
        it. Once it is gone, the first row is again, unless the user `removed` it (trashed it):
        the row that took its place is then, or the new last row."""
        if top:
            self.chosen = False
        keep = self.highlighted_path if self.chosen or again else None
        self._rows = rows
        self.now, self.all_scope, self.show_paths, self.home = now, all_scope, show_paths, home
        if show_paths:
            self._longest_path = max((len(self._path(r.summary)) for r in rows), default=0)
        folders = {r.summary.cwd for r in rows}  # a few, shared by many sessions
        self._longest_cwd = max((len(self._folder(cwd)) for cwd in folders), default=0)
        cursor = 0
        if keep is not None:
            gone_at = self.cursor_line if keep in removed else 0  # past the end: clamped
            cursor = next((i for i, r in enumerate(rows) if r.summary.path == keep), gone_at)
        self._strips.clear()
        self.virtual_size = Size(self.size.width, len(rows) + 1)
        self.refresh()
        self.cursor_line = cursor

    def show_sort(self, sort: str) -> None:
        """The order the rows are in: a sort by a measure shows that measure's column."""
        measure = sort if sort in MEASURES else None
        if measure != self.measure:
            self.measure = measure
            self._strips.clear()
            self.refresh()

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def columns(self) -> list[Column]:
        """The columns shown: the session title takes the width the others leave. The path
        column, asked for, takes its width before the folder column, which gives way first."""
        fixed = [
            Column("count", "Msgs", COUNT_WIDTH, right=True),
            Column("age", "Age", AGE_WIDTH, right=True),
        ]
        if self.measure is not None:  # what the list is sorted by: never gives way
            fixed.insert(0, Column(self.measure, self.measure.capitalize(), MEASURE_WIDTH, True))
        width = self.scrollable_content_region.width
        free = width - sum(c.width + GAP for c in fixed) - GAP
        if free < SESSION_WIDTH_MIN:  # narrow (40 columns): the count goes, the title stays
            fixed = [c for c in fixed if c.key != "count"]
            free = width - sum(c.width + GAP for c in fixed) - GAP
        path = self._path_column(free)
        if path is not None:
            free -= path.width + GAP
        cwd = self._cwd_column(free)
        if cwd is not None:
            fixed.append(cwd)
            free -= cwd.width + GAP
        if path is not None:
            fixed.append(path)
        return [Column("session", "Session", max(SESSION_WIDTH_LEAST, free)), *fixed]

    def _path_column(self, free: int) -> Column | None:
        """The file path beside a readable title, cut in its middle when too long."""
        if not self.show_paths:
            return None
        room = free - SESSION_WIDTH_WITH_PATHS - GAP
        width = max(PATH_MIN, min(PATH_WIDTH, self._longest_path, room))
        return Column("path", "Path", width, middle=True)

    def _cwd_column(self, free: int) -> Column | None:
        """The session's folder (all folders listed), when the title keeps its minimum; on
        a wide screen, the longest folder whole (it was cut mid-word beside a wide title)."""
        wide = min(self._longest_cwd, CWD_WIDE, free // 3)
        width = min(max(CWD_WIDTH, wide), free - SESSION_WIDTH_MIN - GAP)
        if not self.all_scope or width < CWD_MIN:
            return None
        return Column("cwd", "Cwd", width, middle=True)

    @property
    def highlighted(self) -> SessionSummary | None:
        """The highlighted session's summary (`highlighted_row`: its catalog row, with its
        pin and tags when it has any)."""
        row = self.highlighted_row
        return row.summary if row is not None else None

    @property
    def highlighted_path(self) -> str | None:
        summary = self.highlighted
        return summary.path if summary is not None else None

    # -- cursor ---------------------------------------------------------------------------
    def move_to(self, index: int) -> None:
        """The user moves the cursor (keys, a click): it stays on that session from now on."""
        if self.rows:
            self.chosen = True
        super().move_to(index)

    def highlight_key(self) -> object:
        return self.highlighted

    def highlighted_message(self) -> Message:
        return self.Highlighted(self, self.highlighted)

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self, self.highlighted))

    # -- events ---------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self.virtual_size = Size(event.size.width, len(self.rows) + 1)
        self.scroll_to_cursor()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()

    # -- rendering ------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = -1 if y == 0 else y - 1 + self.scroll_offset.y
        if not -1 <= index < len(self.rows):
            return Strip.blank(width, self.rich_style)
        is_cursor = index == self.cursor_line
        key = (index, width, is_cursor, self.has_focus)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._render_row(index, width, is_cursor)
            self._strips[key] = strip
        return strip

    def _render_row(self, index: int, width: int, is_cursor: bool) -> Strip:
        base = self.rich_style
        columns = self.columns
        if index < 0:
            base = base + self.get_component_rich_style("session-table--header")
            cells = [Text(c.label) for c in columns]
        else:
            if is_cursor:
                base = base + self.get_component_rich_style("session-table--cursor")
            cells = self._cells(self.rows[index], columns)
        text = self._line(columns, cells)
        if is_cursor:
            in_text_colour(text)
        text.stylize_before(base)
        segments = list(text.render(self.app.console))
        return Strip(segments).crop_extend(0, width, base).simplify()

    @staticmethod
    def _line(columns: list[Column], cells: list[Text]) -> Text:
        text = Text(" ", no_wrap=True, end="")
        for column, cell in zip(columns, cells, strict=True):
            if column.middle and cell.cell_len > column.width:
                cell = Text(middle_ellipsis(cell.plain, column.width), cell.style)
            cell.truncate(column.width, overflow="ellipsis")
            pad = " " * (column.width - cell.cell_len)
            if column.right:
                text.append(pad)
            text.append_text(cell)
            text.append(("" if column.right else pad) + " " * GAP)
        return text

    def _cells(self, row: CatalogRow, columns: list[Column]) -> list[Text]:
        summary = row.summary
        keys = {c.key for c in columns}
        store = summary.store
        where = ""
        if store == "archive":
            where = "(archived) "
        elif store != "local":  # a remote's mirror: where the session lives
            where = f"({one_line(store)}) "
        said = one_line(summary.name or summary.first_message or "(no messages)")
        guide = _tags_cut(row, columns[0].width - cell_len(where + said))
        title = Text(guide, style=self._style("guide"), no_wrap=True)
        title.append(where, self._style("dim"))
        title.append(said, self._style("name") if summary.name else "")
        moment = to_datetime(summary.modified_ms)
        cells = [title]
        if self.measure == "cost":
            cells.append(Text(cost(summary.total_cost)))
        elif self.measure == "size":
            cells.append(Text(human_size(summary.size)))
        if "count" in keys:
            cells.append(Text(str(summary.message_count)))
        cells.append(Text(age(moment, self.now) if self.now is not None else ""))
        if "cwd" in keys:
            cells.append(Text(self._folder(summary.cwd), self._style("dim")))
        if self.show_paths:
            cells.append(Text(self._path(summary), self._style("dim")))
        return cells

    def _folder(self, cwd: str | None) -> str:
        return one_line(tilde(cwd or "", self.home))

    def _path(self, summary: SessionSummary) -> str:
        return inert_path(tilde(str(summary.path), self.home))

    def _style(self, name: str) -> Style:
        """A component's colour and text style, without its background (the row's shows).
        Not `partial=True`: that cannot blend a translucent colour such as $text-muted."""
        full = self.get_component_rich_style(f"session-table--{name}")
        return Style(color=full.color, bold=full.bold, dim=full.dim, italic=full.italic)


def _tags_cut(row: CatalogRow, room: int) -> str:
    """The row's guide, its tags ("[a b] ", after the thread lines and the pin) cut so that
    the title beside it keeps `room` columns: at 80 columns a long tag left "Fix ro…"."""
    guide = row.guide()
    tags = " ".join(getattr(row, "tags", ()))
    start = guide.find("[", len(CatalogRow.guide(row)))
    end = guide.rfind("] ")
    if not tags or start < 0 or end < start:
        return guide
    others = len(guide) - (end + 2 - start)  # the guide without its tags
    fits = max(TAGS_LEAST, room - others - 3)
    shown = tags if len(tags) <= fits else tags[: fits - 1] + "…"
    return guide[:start] + f"[{shown}] " + guide[end + 2 :]
