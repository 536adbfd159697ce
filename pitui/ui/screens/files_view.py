"""The files view of one session: every file it read, wrote or edited, with how many
calls of each, worked out in a thread worker; below, the calls of the highlighted file.
Enter on a file or a call closes the view with the entry to show, which the session screen
then shows in the tree (a call's result, else the message that made it)."""

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
from pitui.core.file_history.session_changes import ERROR, NO_RESULT
from pitui.core.file_history.session_files import FileCall, FileUse, session_files
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.fitting_footer import FittingFooter
from pitui.ui.widgets.message_parts import as_text

STATUS_TEXT = {ERROR: ("failed", "bold red"), NO_RESULT: ("no result", "yellow")}


@dataclass
class FilesReady(Message):
    files: list[FileUse] | None
    error: str | None


def _count(value: int) -> Text:
    return Text(str(value) if value else "·", justify="right", style="" if value else "dim")


class FilesViewScreen(ReportsFailures, Screen[str | None]):
    """Dismissed with the id of the entry to show, or None (Esc)."""

    DEFAULT_CSS = """
    #files-title { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap;
                   text-overflow: ellipsis; }
    #files-note { height: auto; padding: 0 1; }
    #files-list { height: 1fr; }
    #files-calls { height: 1fr; max-height: 40%; }
    """
    AUTO_FOCUS = "#files-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "jump",
            "Show in tree",
            id="files.jump",  # not a priority binding: it would overtake arrows still queued
            tooltip="Close the view and show this file's (first) call, or this call, in the tree",
        ),
        Binding("escape,q", "close", "Back", id="files.close", tooltip="Back to the session"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__(id="files-view")
        self.path = path
        self.files: list[FileUse] = []

    def compose(self) -> ComposeResult:
        title = Text("Files  ", style="bold", no_wrap=True, overflow="ellipsis")
        title.append(inert_path(self.path.name), style="dim")
        yield Static(title, id="files-title")
        yield Static(Text("Reading the session's tool calls…", style="dim"), id="files-note")
        files: DataTable[Text] = DataTable(id="files-list", cursor_type="row")
        files.add_columns("File", "Read", "Written", "Edited", "Failed")
        yield files
        calls: DataTable[Text] = DataTable(id="files-calls", cursor_type="row")
        calls.add_columns("Call", "Result entry", "Called at", "Result")  # the result: Enter
        yield calls
        yield FittingFooter()

    def on_mount(self) -> None:
        self.read_files()

    @thread_worker("files", "files", exclusive=True)
    def read_files(self) -> None:
        try:
            files = session_files(str(self.path))
        except PituiError as error:
            self.post_message(FilesReady(None, str(error)))
        except OSError as error:
            self.post_message(FilesReady(None, f"cannot read {self.path}: {error.strerror}"))
        else:
            self.post_message(FilesReady(files, None))

    def on_files_ready(self, message: FilesReady) -> None:
        note = self.query_one("#files-note", Static)
        if message.files is None:
            note.update(Text(one_line(message.error or "cannot read"), style="bold red"))
            return
        self.files = message.files
        if not self.files:
            note.update(Text("This session read, wrote and edited no file · Esc back", "dim"))
            return
        note.update(
            Text(
                f"{len(self.files):,} file{'' if len(self.files) == 1 else 's'} · Enter shows "
                "a file's first call (or, below, a call) in the tree · Tab: its calls · Esc back",
                style="dim",
            )
        )
        table = self.query_one("#files-list", DataTable)
        for use in self.files:
            counts = use.counts
            table.add_row(
                Text(one_line(use.shown)),
                *(_count(counts[tool]) for tool in ("read", "write", "edit")),
                _count(use.failed),
            )
        self._show_calls(0)

    @on(DataTable.RowHighlighted, "#files-list")
    def _file_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_calls(event.cursor_row)

    def _show_calls(self, row: int) -> None:
        table = self.query_one("#files-calls", DataTable)
        table.clear()
        if not 0 <= row < len(self.files):
            return
        for call in self.files[row].calls:
            result, style = STATUS_TEXT.get(call.status, ("ok", "green"))
            table.add_row(
                Text(call.tool, style="bold"),
                # the entry Enter shows: the tree shows a call at its result's row
                Text(one_line(call.entry_id), style="cyan"),
                Text(one_line(as_text(call.timestamp)), style="dim"),
                Text(result, style=style),
            )

    def _calls_of_highlighted(self) -> list[FileCall]:
        row = self.query_one("#files-list", DataTable).cursor_row
        return self.files[row].calls if 0 <= row < len(self.files) else []

    def action_jump(self) -> None:
        calls = self._calls_of_highlighted()
        if not calls:
            return
        table = self.query_one("#files-calls", DataTable)
        chosen = table.cursor_row if table.has_focus else 0
        if 0 <= chosen < len(calls):
            self.dismiss(calls[chosen].entry_id)

    @on(DataTable.RowSelected)
    def _chosen(self, event: DataTable.RowSelected) -> None:
        """Enter in a table (after the keys before it), or a click on the cursor's row."""
        self.action_jump()

    def action_close(self) -> None:
        self.dismiss(None)
