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
    """Dismisses with the text (stripped; "" means clear) on Enter, or None on Esc or when
    Enter leaves the text as it was given (nothing to change).

    The field shows text as the screen may (`one_line`: controls and bidi marks as visible
    markers): a value that holds such characters is not put in it, since saving the markers
    would replace the real characters (a name with U+202E came back as the eight characters
    "<U+202E>"); what is typed replaces it."""

    AUTO_FOCUS = "Input"  # focused once composed (never looked for after a quit)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="text.cancel", tooltip="Keep it")
    ]

    def __init__(
        self, title: str, value: str = "", *, hint: str = "", suggester: Suggester | None = None
    ) -> None:
        super().__init__(classes="modal")
        self._title = title
        shown = one_line(value)
        self._given = bool(value)  # Enter on it as given changes nothing
        self._value = shown if shown == value else ""
        self._hint = hint
        if shown != value:
            self._hint = "It holds characters that cannot be shown: what you type replaces it"
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
        typed = js_trim(event.value)  # as Pi trims what is typed
        self.dismiss(None if self._given and typed == js_trim(self._value) else typed)

    def action_cancel(self) -> None:
        self.dismiss(None)
