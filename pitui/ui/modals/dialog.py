"""What every dialog shares."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

from pitui.ui.toasts import KeepsErrorToasts

Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A question over the screen. The toasts of earlier actions are cleared when it opens (at
    80x24 they sat over its buttons for their few seconds), but for errors."""

    def on_mount(self) -> None:
        if isinstance(self.app, KeepsErrorToasts):
            self.app.clear_toasts_but_errors()
        else:
            self.app.clear_notifications()
