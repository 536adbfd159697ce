"""What every dialog shares."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A question over the screen. The toasts of earlier actions are cleared when it opens:
    at 80x24 they sat over its buttons for their few seconds."""

    def on_mount(self) -> None:
        self.app.clear_notifications()
