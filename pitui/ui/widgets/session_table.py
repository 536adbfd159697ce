"""The picker's table of sessions: a threaded forest with guides, one row per session."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, Input

from pitui.core.safe_text import one_line
from pitui.ui.format import age, tilde, to_datetime

SESSION_WIDTH_MIN = 24
CWD_WIDTH = 28
PATH_WIDTH = 60


def session_title(summary: Any) -> Text:
    """The name (bold) if the session has one, else its first message."""
    if summary.name:
        return Text(one_line(summary.name), style="bold")
    return Text(one_line(summary.first_message or "(no messages)"))


class SessionTable(DataTable[Any]):
    """Rows keyed by session path. Printable keys other than its own go to the search box."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "screen.resume", "Resume", id="picker.resume", tooltip="Hand off to pi"),
        Binding("f", "screen.fork", "Fork", id="picker.fork", tooltip="pi --fork this session"),
        Binding("escape", "screen.focus_search", "Search", show=False, id="picker.search"),
    ]
    OWN_KEYS = frozenset("rf?")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)
        self.summaries: dict[str, Any] = {}

    def show_rows(
        self,
        rows: Sequence[Any],
        *,
        now: datetime,
        all_scope: bool,
        show_paths: bool,
        home: str | None = None,
    ) -> None:
        """Replace the rows, keeping the highlighted session if it is still listed."""
        keep = self.highlighted_path
        self.clear(columns=True)
        self.summaries = {}
        width = self._title_width(all_scope, show_paths)
        self.add_column("Session", key="session", width=width)
        self.add_column(Text("Msgs", justify="right"), key="count", width=5)
        self.add_column(Text("Age", justify="right"), key="age", width=4)
        if all_scope:
            self.add_column("Cwd", key="cwd", width=CWD_WIDTH)
        if show_paths:
            self.add_column("Path", key="path", width=PATH_WIDTH)
        for row in rows:  # fixed widths: adding rows measures no cell
            summary = row.summary
            self.summaries[summary.path] = summary
            self.add_row(*self._cells(row, now, all_scope, show_paths, home), key=summary.path)
        if keep in self.summaries:
            self.move_cursor(row=self.get_row_index(keep), animate=False, scroll=True)

    def _title_width(self, all_scope: bool, show_paths: bool) -> int:
        width = self.parent.size.width if isinstance(self.parent, Widget) else 0
        available = max(width or self.size.width, 60) - 17
        if all_scope:
            available -= CWD_WIDTH + 2
        if show_paths:
            available -= PATH_WIDTH + 2
        return max(SESSION_WIDTH_MIN, available)

    def _cells(
        self, row: Any, now: datetime, all_scope: bool, show_paths: bool, home: str | None
    ) -> list[Any]:
        summary = row.summary
        title = Text(row.guide(), style="dim")
        title.append_text(session_title(summary))
        title.no_wrap = True
        title.overflow = "ellipsis"
        moment = to_datetime(summary.modified_ms)
        cells: list[Any] = [
            title,
            Text(str(summary.message_count), justify="right"),
            Text(age(moment, now), justify="right"),
        ]
        if all_scope:
            cells.append(Text(one_line(tilde(summary.cwd or "", home)), style="dim"))
        if show_paths:
            cells.append(Text(one_line(tilde(str(summary.path), home)), style="dim"))
        return cells

    @property
    def highlighted_path(self) -> str | None:
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        except Exception:
            return None
        return key.value

    @property
    def highlighted(self) -> Any:
        path = self.highlighted_path
        return self.summaries.get(path) if path else None

    def on_key(self, event: events.Key) -> None:
        """Typing anywhere in the list keeps searching."""
        search = self.screen.query_one("#search", Input)
        if event.key == "backspace" or (
            event.is_printable and event.character not in self.OWN_KEYS
        ):
            event.stop()
            event.prevent_default()
            search.focus()
            if event.key == "backspace":
                search.action_delete_left()
            elif event.character:
                search.insert_text_at_cursor(event.character)
