"""What every dialog shares."""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.screen import ModalScreen

from pitui.ui.toasts import KeepsErrorToasts

Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A question over the screen. The toasts of earlier actions are cleared when it opens (at
    80x24 they sat over its buttons for their few seconds), but for errors. A click on the
    dimmed screen around it cancels it, as Esc does (a text dialog has no button)."""

    def action_cancel(self) -> None:
        raise NotImplementedError

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:
            self.action_cancel()

    def on_mount(self) -> None:
        if isinstance(self.app, KeepsErrorToasts):
            self.app.clear_toasts_but_errors()
        else:
            self.app.clear_notifications()
