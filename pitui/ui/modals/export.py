"""Export from the app: a small dialog (format, branch or context, redaction, where to),
then the export in a thread worker (its progress on a line above the footer) and a
notification with the path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet
from textual.worker import get_current_worker

from pitui.core.errors import PituiError
from pitui.core.export.destination import free_path, proposed_name, write_result
from pitui.core.export.options import EXTENSIONS, FORMATS, ExportOptions, Format
from pitui.core.rows.safe_text import one_line
from pitui.core.session.session import Session
from pitui.ui.display_text import block, line
from pitui.ui.modals.dialog import Dialog
from pitui.ui.modals.dialog_body import PathLine, PathText
from pitui.ui.widgets.export_progress import ExportProgress, show_export_progress

FORMAT_NAMES = {"md": "Markdown", "html": "HTML", "jsonl": "Pi session (.jsonl)"}
FORMAT_OF_BUTTON: dict[str, Format] = {f"format-{fmt}": fmt for fmt in FORMATS}


@dataclass(frozen=True, slots=True)
class ExportRequest:
    options: ExportOptions
    destination: Path


class ExportModal(Dialog[ExportRequest | None]):
    """Dismisses with what to export where, or None on Esc."""

    DEFAULT_CSS = """
    ExportModal RadioSet { layout: horizontal; border: none; height: auto; padding: 0; }
    ExportModal RadioSet:focus { border: none; }  /* no jump under a click on focus */
    ExportModal RadioSet > RadioButton { width: auto; margin-right: 2; }  /* labels whole */
    /* focus shows on the label, never as a border: a border grew the box by two rows and
       moved every control below it, so the next click landed on another one */
    ExportModal Checkbox, ExportModal Checkbox:focus { border: none; padding: 0; height: auto; }
    /* narrow (below 60 columns): one format a line, each whole; a long label ends in "…" */
    ExportModal.-narrow RadioSet { layout: vertical; }
    ExportModal.-narrow Checkbox { width: 100%; }
    ExportModal #export-error { color: $text-error; height: auto; }
    """
    AUTO_FOCUS = "#export-path"  # focused once composed (never looked for after a quit)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="export.cancel", tooltip="Export nothing")
    ]

    def __init__(self, title: str, what: str, folder: Path) -> None:
        super().__init__(classes="modal")
        self._title = title
        self._what = what
        self._folder = folder
        self._chosen_format: Format = "md"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(line(f"Export {self._what}"), classes="dialog-title")
            with RadioSet(id="export-format"):
                for fmt in FORMATS:
                    yield RadioButton(FORMAT_NAMES[fmt], value=fmt == "md", id=f"format-{fmt}")
            yield Checkbox("Exact LLM context instead of the branch", id="export-context")
            yield Checkbox("Redact secrets", id="export-redact")
            proposed = free_path(self._folder / self._proposed())
            yield Input(str(proposed), id="export-path")
            # the field shows its end at 80 columns: the folder it writes into, always seen
            yield PathLine(PathText(str(proposed.parent), "in "), classes="dialog-path")
            yield Label("", id="export-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Export", id="export-go", variant="primary")
                yield Button("Cancel", id="export-cancel")
            yield Label(line("Enter exports · Esc cancels"), classes="dialog-hint")

    def _proposed(self) -> str:
        context = self.is_mounted and self.query_one("#export-context", Checkbox).value
        return proposed_name(self._title, EXTENSIONS[self._chosen_format], bool(context))

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        self._chosen_format = FORMAT_OF_BUTTON.get(event.pressed.id or "", "md")
        self.query_one("#export-redact", Checkbox).value = self._chosen_format == "html"
        context = self.query_one("#export-context", Checkbox)
        context.disabled = self._chosen_format == "jsonl"
        if context.disabled:
            context.value = False
        self._rename()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        if event.checkbox.id == "export-context":
            self._rename()

    def _rename(self) -> None:
        """The proposed name follows the format and the context choice, in the same folder."""
        path_input = self.query_one("#export-path", Input)
        folder = Path(path_input.value).parent if path_input.value else self._folder
        path_input.value = str(free_path(folder / self._proposed()))
        self.query_one("#export-error", Label).update("")  # said of the name before

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        folder = self.query_one(PathLine)
        typed = event.value.strip()
        folder.path = one_line(os.path.dirname(os.path.abspath(os.path.expanduser(typed))))
        folder.display = bool(typed)
        folder.refresh()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export-go":
            self._submit()
        else:
            self.dismiss(None)

    def _submit(self) -> None:
        text = self.query_one("#export-path", Input).value.strip()
        error = self.query_one("#export-error", Label)
        if not text:
            error.update("Where to? Type a file name.")
            return
        path = Path(os.path.expanduser(text))
        if path.exists() or path.is_symlink():
            error.update(block(f"{path.name} exists: choose another name"))
            return
        options = ExportOptions(
            format=self._chosen_format,
            context=self.query_one("#export-context", Checkbox).value,
            redact=self.query_one("#export-redact", Checkbox).value,
        )
        self.dismiss(ExportRequest(options, path))

    def action_cancel(self) -> None:
        self.dismiss(None)


def ask_export(screen: Widget, path: Path, leaf_id: str | None, title: str, what: str) -> None:
    """Ask what to export, then export in a thread worker and notify with the path."""

    def chosen(request: ExportRequest | None) -> None:
        if request is not None:
            shown = show_export_progress(screen)
            screen.run_worker(
                lambda: _run(screen, path, leaf_id, request, shown),
                thread=True,
                group="export",
                exit_on_error=False,
                description="exporting",
            )

    screen.app.push_screen(ExportModal(title, what, Path.cwd()), callback=chosen)


class _Stopped(Exception):
    """The app quits while the export is being made: it stops, nothing written."""


def _run(
    screen: Widget, path: Path, leaf_id: str | None, request: ExportRequest, shown: ExportProgress
) -> None:
    """The export; it stops at its next step once the app quits: a thread left running into
    the interpreter's exit was ended inside a Rust extension, and the process aborted
    ("FATAL: exception not rethrown", exit status 134)."""
    worker = get_current_worker()

    def moved(done: int, total: int) -> None:
        if worker.is_cancelled:
            raise _Stopped
        shown.moved(done, total)

    try:
        _export(screen, path, leaf_id, request, moved)
    except _Stopped:
        pass
    finally:
        shown.finished()


def _export(
    screen: Widget,
    path: Path,
    leaf_id: str | None,
    request: ExportRequest,
    progress: Callable[[int, int], None],
) -> None:
    # deferred: the exporters, ~17 ms off the app's first frame
    from pitui.core.export.export import export_session

    try:
        session = Session(path)
        if leaf_id is not None and session.tree.get(leaf_id) is None:
            leaf_id = None  # the entry is gone (the file was replaced): its leaf instead
        result = export_session(session, leaf_id, request.options, progress)
        written = write_result(request.destination, result, source=session.path)
    except (PituiError, OSError) as error:
        screen.app.call_from_thread(
            screen.notify, one_line(f"Export failed: {error}"), severity="error", markup=False
        )  # the reason names the path: "[Errno 20] ..." read as markup ended the app
        return
    note = f"Exported to {written}"
    if result.paged is not None:
        note += f" and {len(result.paged.parts)} parts beside it"
    if request.options.redact:
        counts = result.redacted
        note += f" ({sum(counts.values())} secrets redacted)" if counts else " (no secret found)"
    screen.app.call_from_thread(screen.notify, one_line(note), timeout=8, markup=False)
