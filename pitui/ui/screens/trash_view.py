"""The Pi sessions in the freedesktop trash, with restore (as `pitui restore`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from pitui.core.changes.restore import Trashed, list_trashed, restore
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import ListsSessions
from pitui.ui.display_text import human_size
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.fitting_footer import FittingFooter


@dataclass
class TrashListed(Message):
    items: list[Trashed] | None
    error: str | None


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
        Binding(
            "enter",
            "restore",
            "Restore",
            id="trash.restore",
            priority=True,
            tooltip="Move the session back to where it was",
        ),
        Binding("escape,q", "close", "Back", id="trash.close", tooltip="Back to the picker"),
    ]

    def __init__(self, sessions_root: Path | None) -> None:
        super().__init__(id="trash-view")
        self.sessions_root = sessions_root
        self.items: list[Trashed] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("Sessions in the trash", style="bold"), id="trash-title")
        yield Static(Text("Reading the trash…", style="dim"), id="trash-note")
        table: DataTable[Text] = DataTable(id="trash-table", cursor_type="row")
        table.add_columns("Deleted", "Size", "Original path")
        yield table
        yield FittingFooter()

    def on_mount(self) -> None:
        self.load()

    def action_close(self) -> None:
        self.app.pop_screen()

    @thread_worker("trash", "trash", exclusive=True)
    def load(self) -> None:
        try:
            self.post_message(TrashListed(list_trashed(near=self.sessions_root), None))
        except PituiError as error:
            self.post_message(TrashListed(None, str(error)))

    def on_trash_listed(self, message: TrashListed) -> None:
        note = self.query_one("#trash-note", Static)
        table = self.query_one("#trash-table", DataTable)
        table.clear()
        self.items = message.items or []
        if message.error:
            note.update(Text(one_line(message.error), style="bold red"))
            return
        count = len(self.items)
        note.update(Text(f"{count} session{'s' * (count != 1)} · Enter restores", style="dim"))
        for item in self.items:
            table.add_row(
                Text(one_line(item.deleted.replace("T", " "))),
                Text(human_size(item.size)),
                Text(one_line(str(item.original))),
            )
        table.focus()

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
