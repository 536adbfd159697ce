"""Yes/no question: Enter confirms, Esc cancels."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from pitui.ui.format import block, line


class ConfirmModal(ModalScreen[bool]):
    """Dismisses with True (Enter or the confirm button) or False (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Confirm", id="confirm.yes", tooltip="Do it", priority=True),
        Binding("escape", "cancel", "Cancel", id="confirm.no", tooltip="Leave it as it is"),
    ]

    def __init__(self, title: str, message: str, *, confirm_label: str = "Confirm") -> None:
        super().__init__(classes="modal")
        self._title = title
        self._message = message
        self._confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(line(self._title), classes="dialog-title")
            yield Label(block(self._message), classes="dialog-body")
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
