"""Yes/no question: Enter confirms, Esc cancels."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label

from pitui.ui.display_text import block
from pitui.ui.modals.dialog import Dialog
from pitui.ui.modals.dialog_body import Body, body_widgets


class ConfirmModal(Dialog[bool]):
    """Dismisses with True (Enter or the confirm button) or False (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Confirm", id="confirm.yes", tooltip="Do it", priority=True),
        Binding("escape", "cancel", "Cancel", id="confirm.no", tooltip="Leave it as it is"),
    ]

    def __init__(
        self, title: str, message: Body, *, confirm_label: str = "Confirm", question: str = ""
    ) -> None:
        super().__init__(classes="modal")
        self._title = title
        self._message = message
        self._confirm_label = confirm_label
        self._question = question

    def compose(self) -> ComposeResult:
        """Title, then the message (wrapped; it scrolls when long), then the question and
        the buttons, which always stay in view."""
        with Vertical(classes="dialog"):
            yield Label(block(self._title), classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield from body_widgets(self._message)
            if self._question:
                yield Label(block(self._question), classes="dialog-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._confirm_label, variant="error", id="confirm")
                yield Button("Cancel", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
