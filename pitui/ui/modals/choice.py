"""Pick one of a few answers (e.g. the session's folder is gone: run here / cancel)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label

from pitui.ui.display_text import block
from pitui.ui.modals.dialog import Dialog
from pitui.ui.modals.dialog_body import Body, body_widgets


class ChoiceModal(Dialog[str | None]):
    """Dismisses with the chosen key, or None on Esc. The first choice has the focus."""

    AUTO_FOCUS = "Button"  # focused once composed (never looked for after a quit)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="choice.cancel", tooltip="Do nothing")
    ]

    def __init__(self, title: str, message: Body, choices: list[tuple[str, str]]) -> None:
        super().__init__(classes="modal")
        self._title = title
        self._message = message
        self._choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(block(self._title), classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield from body_widgets(self._message)
            with Horizontal(classes="dialog-buttons"):
                for key, text in self._choices:
                    yield Button(text, id=f"choice-{key}")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))

    def action_cancel(self) -> None:
        self.dismiss(None)
