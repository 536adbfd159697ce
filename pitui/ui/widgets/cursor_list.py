"""CursorList: a line-API list of rows with a cursor, the base of the picker's session table,
the entry tree and the context list, in the style of Textual's `Tree` and `OptionList`.

`cursor_line` is a `var`: assigning it clamps it (`validate_cursor_line`), and the watcher
repaints, scrolls it into view and posts the widget's highlighted message when the row it is
on changed. A subclass gives its `rows`, draws them (`render_line`), and says what its
highlighted message is; rows start `HEADER_LINES` below the top (the session table's header).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, Literal, TypeVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Spacing
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView

RowT = TypeVar("RowT")


class CursorList(ScrollView, Generic[RowT]):
    """Rows with a cursor: keys and a click move it, Enter (`action_select`) chooses its row."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
    ]
    HEADER_LINES: ClassVar[int] = 0
    """Lines drawn above the rows, which do not scroll."""
    PAGE_OVERLAP: ClassVar[int] = 0
    """Rows a page up or down keeps in view."""
    CLICK_SELECTS: ClassVar[Literal["never", "double", "again", "always"]] = "again"
    """A click highlights its row; it also selects it always, or on the highlighted row and
    on a double-click ("again"), or on a double-click only ("double"), or never."""

    cursor_line: var[int] = var(0, always_update=True, init=False)
    """The index of the highlighted row."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._rows: Sequence[RowT] = []
        self._posted: object = None  # what the last highlighted message was about
        self._chain_selected = False  # a click of the current click chain selected its row

    @property
    def rows(self) -> Sequence[RowT]:
        """The rows shown, in order."""
        return self._rows

    @property
    def highlighted_row(self) -> RowT | None:
        rows, line = self.rows, self.cursor_line
        return rows[line] if 0 <= line < len(rows) else None

    @property
    def visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - self.HEADER_LINES)

    # -- what a subclass says -------------------------------------------------------------
    def highlight_key(self) -> object:
        """What the highlighted message is about (None: no row): it is posted again when
        this changes (compared with `!=`)."""
        return self.highlighted_row

    def highlighted_message(self) -> Message | None:
        """The message telling the cursor is on another row (None: this list posts none)."""
        return None

    # -- cursor ---------------------------------------------------------------------------
    def validate_cursor_line(self, value: int) -> int:
        return max(0, min(value, len(self.rows) - 1))

    def watch_cursor_line(self, previous: int, line: int) -> None:
        self.refresh_line(previous + self.HEADER_LINES)
        self.refresh_line(line + self.HEADER_LINES)
        self.scroll_to_cursor()
        self.post_highlighted()

    def move_to(self, index: int) -> None:
        """The user moves the cursor (a key, a click) to row `index`."""
        if self.rows:
            self.cursor_line = index

    def scroll_to_cursor(self, center: bool = False) -> None:
        if self.scrollable_content_region.height <= self.HEADER_LINES:
            return  # not laid out yet
        region = Region(0, self.cursor_line + self.HEADER_LINES, 1, 1)
        self.scroll_to_region(
            region,
            spacing=Spacing(top=self.HEADER_LINES),
            animate=False,
            force=True,
            center=center,
            immediate=True,
            x_axis=False,
        )

    def post_highlighted(self) -> None:
        """Post the highlighted message if the row highlighted changed since the last one."""
        key = self.highlight_key()
        if key != self._posted:
            self._posted = key
            message = self.highlighted_message()
            if message is not None:
                self.post_message(message)

    # -- actions --------------------------------------------------------------------------
    def action_cursor(self, step: int) -> None:
        self.move_to(self.cursor_line + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor_line + step * max(1, self.visible_rows - self.PAGE_OVERLAP))

    def action_jump(self, index: int) -> None:
        """Row `index`; a negative index counts from the end (-1: the last row)."""
        self.move_to(index if index >= 0 else len(self.rows) + index)

    def action_select(self) -> None:
        """Choose the highlighted row (a subclass posts its selected message)."""

    # -- events ---------------------------------------------------------------------------
    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.HEADER_LINES:
            return
        index = offset.y - self.HEADER_LINES + self.scroll_offset.y
        if not 0 <= index < len(self.rows):
            return
        again = index == self.cursor_line or event.chain > 1
        self.move_to(index)
        if event.chain == 1:
            self._chain_selected = False
        if self._chain_selected:
            return  # a double-click whose first click selected (the row was highlighted)
        double = self.CLICK_SELECTS == "double" and event.chain > 1
        if self.CLICK_SELECTS == "always" or (self.CLICK_SELECTS == "again" and again) or double:
            self._chain_selected = True
            self.action_select()
