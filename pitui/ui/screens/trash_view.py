"""The Pi sessions in the freedesktop trash, with restore (as `pitui restore`): each named by
its title (its name, else its first message) over where it was."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from pitui.core.catalog.session_info.builder import SummaryBuilder
from pitui.core.changes.restore import Trashed, list_trashed, restore
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular_file
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import ListsSessions, PituiAppBase
from pitui.ui.display_text import human_size, middle_ellipsis, tilde
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.fitting_footer import FittingFooter

TITLE_BYTES = 256 * 1024  # of a trashed session read for its title (a 100 MB one: its start)
SESSION_MIN = 20  # columns of the session column, however narrow the screen
HEADERS = ("Deleted", "Size", "Session")


class TrashTable(DataTable[Text]):
    """The trashed sessions. Enter is the table's own key, so it comes after the keys typed
    before it: a screen's priority Enter ran first, and Down, Enter sent in one read
    restored the row above."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "screen.restore",
            "Restore",
            id="trash.restore",
            tooltip="Move the session back to where it was",
        ),
    ]


@dataclass
class TrashListed(Message):
    items: list[Trashed] | None
    error: str | None
    skipped: list[str] = field(default_factory=list)  # entries that are not regular files


@dataclass
class TrashTitled(Message):
    """The titles of a listing's items, in order (read after it: 1.1 s for 1,000)."""

    items: list[Trashed]
    titles: list[str]


@dataclass
class TrashRestored(Message):
    item: Trashed
    error: str | None


class TrashViewScreen(ReportsFailures, Screen[None]):
    """Lists the trashed sessions; Enter restores the highlighted one to where it was."""

    DEFAULT_CSS = """
    #trash-title { height: 1; padding: 0 1; background: $boost; }
    #trash-note { height: auto; padding: 0 1; }
    #trash-table { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", id="trash.close", tooltip="Back to the picker"),
    ]

    app = getters.app(PituiAppBase)

    def __init__(self, sessions_root: Path | None) -> None:
        super().__init__(id="trash-view")
        self.sessions_root = sessions_root
        self.items: list[Trashed] = []
        self.titles: list[str | None] = []  # None: not read yet

    def compose(self) -> ComposeResult:
        yield Static(Text("Sessions in the trash", style="bold"), id="trash-title")
        yield Static(Text("Reading the trash…", style="dim"), id="trash-note")
        table = TrashTable(id="trash-table", cursor_type="row")
        yield table
        yield FittingFooter()

    def on_mount(self) -> None:
        self.load()

    def action_close(self) -> None:
        self.app.pop_screen()

    @thread_worker("trash", "trash", exclusive=True)
    def load(self) -> None:
        skipped: list[str] = []
        try:
            items = list_trashed(near=self.sessions_root, skipped=skipped)
        except PituiError as error:
            self.post_message(TrashListed(None, str(error)))
            return
        self.post_message(TrashListed(items, None, skipped))  # at once: the titles take longer
        self.post_message(TrashTitled(items, [session_title(i.trashed) for i in items]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Restore only while there is a session to restore (off the footer otherwise)."""
        return bool(self.items) if action == "restore" else True

    def on_trash_listed(self, message: TrashListed) -> None:
        note = self.query_one("#trash-note", Static)
        self.items = message.items or []
        self.refresh_bindings()
        self.titles = [None] * len(self.items)
        self._fill_table()
        for skipped in message.skipped:
            self.notify(one_line(skipped), severity="warning", markup=False)
        if message.error:
            note.update(Text(one_line(message.error), style="bold red"))
            return
        count = len(self.items)
        if count == 0:
            note.update(Text("The trash holds no Pi session", style="dim"))
            return
        note.update(Text(f"{count} session{'s' * (count != 1)} · Enter restores", style="dim"))
        self.query_one("#trash-table", DataTable).focus()

    def on_trash_titled(self, message: TrashTitled) -> None:
        if message.items is self.items:  # else a newer listing is shown
            self.titles = list(message.titles)
            self._fill_table()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fill_table)  # the session column fits the new width

    def _fill_table(self) -> None:
        """The rows, the session column taking the width the others leave: its title over
        where it was, each cut with an ellipsis (a path in its middle, keeping its file)."""
        table = self.query_one("#trash-table", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        cells = [_fixed_cells(item) for item in self.items]
        widths = [max([len(h), *(len(c[i]) for c in cells)]) for i, h in enumerate(HEADERS[:-1])]
        for header, width in zip(HEADERS[:-1], widths, strict=True):
            table.add_column(header, width=width)
        session_width = self._session_width(table, widths)
        table.add_column(HEADERS[-1], width=session_width)
        for item, title, fixed in zip(self.items, self.titles, cells, strict=True):
            session = self._session_cell(title, item.original, session_width)
            table.add_row(*(Text(cell) for cell in fixed), session, height=2)
        if self.items:
            table.move_cursor(row=min(cursor, len(self.items) - 1))

    def _session_width(self, table: DataTable[Text], widths: list[int]) -> int:
        padding = 2 * table.cell_padding
        taken = sum(width + padding for width in widths) + padding
        room = table.size.width - table.styles.scrollbar_size_vertical - taken
        return max(SESSION_MIN, room)

    def _session_cell(self, title: str | None, original: Path, width: int) -> Text:
        """The title ("…" while it is read) over the path."""
        path = middle_ellipsis(one_line(tilde(str(original), self.app.config.home)), width)
        shown = "…" if title is None else one_line(title) or "(no messages)"
        return Text.assemble(shown, "\n", (path, "dim"), no_wrap=True, overflow="ellipsis")

    def action_restore(self) -> None:
        table = self.query_one("#trash-table", DataTable)
        if 0 <= table.cursor_row < len(self.items):
            self.restore_item(self.items[table.cursor_row])

    @thread_worker("trash-restore", "restore")
    def restore_item(self, item: Trashed) -> None:
        try:
            restore(item)
        except PituiError as error:
            self.post_message(TrashRestored(item, str(error)))
        else:
            self.post_message(TrashRestored(item, None))

    def on_trash_restored(self, message: TrashRestored) -> None:
        if message.error:
            self.notify(one_line(message.error), severity="error", markup=False)
        else:
            self.notify(f"restored {one_line(str(message.item.original))}", markup=False)
            for screen in self.app.screen_stack:
                if isinstance(screen, ListsSessions):
                    screen.refresh_paths([message.item.original])
        self.load()


def _fixed_cells(item: Trashed) -> list[str]:
    return [one_line(item.deleted.replace("T", " ")), human_size(item.size)]


def session_title(path: Path) -> str:
    """A trashed session's title as the picker gives it, its name or else its first message,
    read from the start of its file (a name given further on is not seen); "" if unreadable."""
    try:
        with open_regular_file(path) as file:
            start = file.read(TITLE_BYTES)
    except (OSError, PituiError):
        return ""
    builder = SummaryBuilder()
    try:
        builder.feed_lines(start.split(b"\n")[:-1])  # the complete lines
    except Exception:  # a value nothing expected: the title only is lost, not the list
        return ""
    return builder.name or builder.first_message
