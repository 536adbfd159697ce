"""The size view of one session (as `pitui du FILE`): bytes by kind and the largest entries,
worked out in a thread worker. Enter on an entry closes the view with its id, which the
session screen then shows in the tree."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.usage.sizes import EntrySize, SessionSize, session_size
from pitui.ui.display_text import human_size
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.fitting_footer import FittingFooter

TOP = 20  # largest entries listed
BAR = 16  # cells of the share bar at 100%
ID_SHOWN = 8  # characters of a longer id (the session header's UUID) before "…"


@dataclass
class SizesReady(Message):
    sizes: SessionSize | None
    error: str | None


class SizeViewScreen(ReportsFailures, Screen[str | None]):
    """Dismissed with the chosen entry's id, or None (Esc, or an entry without an id)."""

    DEFAULT_CSS = """
    #sizes-title { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap;
                   text-overflow: ellipsis; }
    #sizes-note { height: auto; padding: 0 1; }
    #sizes-kinds { height: auto; max-height: 45%; }
    #sizes-largest { height: 1fr; }
    """
    AUTO_FOCUS = "#sizes-largest"  # focused once composed (never looked for after a quit)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "jump",
            "Show in tree",
            id="sizes.jump",  # not a priority binding: it would overtake arrows still queued
            tooltip="Close the view and move the tree's cursor to this entry",
        ),
        Binding("escape,q", "close", "Back", id="sizes.close", tooltip="Back to the session"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__(id="size-view")
        self.path = path
        self.largest: list[EntrySize] = []

    def compose(self) -> ComposeResult:
        title = Text("Sizes  ", style="bold", no_wrap=True, overflow="ellipsis")
        title.append(inert_path(self.path.name), style="dim")
        yield Static(title, id="sizes-title")
        yield Static(Text("Measuring the session…", style="dim"), id="sizes-note")
        kinds: DataTable[Text] = DataTable(id="sizes-kinds", cursor_type="none")
        kinds.can_focus = False
        kinds.add_columns("Kind", "Bytes", "Share", "")
        yield kinds
        largest: DataTable[Text] = DataTable(id="sizes-largest", cursor_type="row")
        largest.add_columns("Largest entries", "Bytes", "Line", "Kind", "Starts with")
        yield largest
        yield FittingFooter()

    def on_mount(self) -> None:
        self.measure()

    @thread_worker("sizes", "sizes", exclusive=True)
    def measure(self) -> None:
        try:
            sizes = session_size(str(self.path), TOP)
        except PituiError as error:
            self.post_message(SizesReady(None, str(error)))
        except OSError as error:
            self.post_message(SizesReady(None, f"cannot read {self.path}: {error.strerror}"))
        else:
            self.post_message(SizesReady(sizes, None))

    def on_sizes_ready(self, message: SizesReady) -> None:
        note = self.query_one("#sizes-note", Static)
        if message.sizes is None:
            note.update(Text(one_line(message.error or "cannot measure"), style="bold red"))
            return
        sizes = message.sizes
        title = self.query_one("#sizes-title", Static)
        title.update(Text.assemble(("Sizes  ", "bold"), (human_size(sizes.size), "bold"),
                                   ("  " + inert_path(self.path.name), "dim"),
                                   no_wrap=True, overflow="ellipsis"))  # fmt: skip
        note.update(Text("Enter on an entry shows it in the tree · Esc back", style="dim"))
        self._fill_kinds(sizes)
        self._fill_largest(sizes.largest)

    def _fill_kinds(self, sizes: SessionSize) -> None:
        table = self.query_one("#sizes-kinds", DataTable)
        for kind, size in sizes.kinds.most_common():
            share = size / sizes.size if sizes.size else 0.0
            table.add_row(
                Text(one_line(kind)),
                Text(human_size(size), justify="right"),
                Text(f"{share:.0%}", justify="right"),
                Text("█" * round(share * BAR), style="cyan"),
            )

    def _fill_largest(self, largest: list[EntrySize]) -> None:
        table = self.query_one("#sizes-largest", DataTable)
        self.largest = largest
        for entry in largest:
            name = Text(_short_id(entry.id)) if entry.id else Text("(no id)", style="dim")
            table.add_row(
                name,
                Text(human_size(entry.bytes), justify="right"),
                Text(str(entry.line), justify="right"),
                Text(one_line(entry.kind)),
                Text(entry.text, style="dim" if not entry.text else ""),
            )

    def action_jump(self) -> None:
        table = self.query_one("#sizes-largest", DataTable)
        if not 0 <= table.cursor_row < len(self.largest):
            return
        entry = self.largest[table.cursor_row]
        if entry.id is None:
            self.notify("This line has no entry id (the header, or a line that does not parse)")
            return
        self.dismiss(entry.id)

    @on(DataTable.RowSelected, "#sizes-largest")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        """Enter in the table (after the keys before it), or a click on the cursor's row."""
        self.action_jump()

    def action_close(self) -> None:
        self.dismiss(None)


def _short_id(entry_id: str) -> str:
    """An id as the tree shows it: the session header's (a 36-character UUID) cut to 8 and
    "…", the width of an entry's own; it had padded the id column to 38 at 80 columns and
    pushed "Starts with" off the screen."""
    shown = one_line(entry_id)
    return shown if len(shown) <= ID_SHOWN else shown[:ID_SHOWN] + "…"
