"""One line of text, pre-filled and selected: used to rename a session and to label an entry.
Typing replaces the text shown, as in any rename field; an arrow key keeps it for editing."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.suggester import Suggester
from textual.widgets import Input, Label
from textual.widgets.input import Selection

from pitui.core.format.jsvalues import js_trim
from pitui.core.rows.safe_text import one_line
from pitui.ui.display_text import line
from pitui.ui.modals.dialog import Dialog
from pitui.ui.widgets.pi_input import PiInput


class TextInputModal(Dialog[str | None]):
    """Dismisses with the text (stripped; "" means clear) on Enter, or None on Esc."""

    AUTO_FOCUS = "Input"  # focused once composed (never looked for after a quit)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="text.cancel", tooltip="Keep it")
    ]

    def __init__(
        self, title: str, value: str = "", *, hint: str = "", suggester: Suggester | None = None
    ) -> None:
        super().__init__(classes="modal")
        self._title = title
        self._value = one_line(value)
        self._hint = hint
        self._suggester = suggester  # completes what is typed (a folder's path)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(line(self._title), classes="dialog-title")
            yield PiInput(
                self._value, id="text-input", select_on_focus=False, suggester=self._suggester
            )
            yield Label(
                line(self._hint or "Enter saves · empty clears · Esc cancels"),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        for field in self.query("#text-input").results(Input):  # none if the app quit first
            field.selection = Selection(0, len(field.value))  # the cursor at its end

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(js_trim(event.value))  # as Pi trims what is typed

    def action_cancel(self) -> None:
        self.dismiss(None)
