"""What every dialog shares."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual import events
from textual.screen import ModalScreen
from textual.widgets import Button

from pitui.ui.toasts import KeepsErrorToasts

Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A question over the screen. The toasts of earlier actions are cleared when it opens (at
    80x24 they sat over its buttons for their few seconds), but for errors. A click on the
    dimmed screen around it cancels it, as Esc does (a text dialog has no button). Buttons
    that do not fit side by side stack, one a line and without borders: at 40 columns the
    context edit's Cancel was cut off, out of reach of the mouse."""

    # small terminals: less padding (pitui.tcss), so that every button stays on screen
    # (Textual's Screen types them `ClassVar[...] | None`, which mypy takes for an instance's)
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (60, "-wide")]  # type: ignore[misc]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (20, "-tall")]  # type: ignore[misc]

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

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_buttons)

    def _fit_buttons(self) -> None:
        """Stack a row of buttons that is wider than its room. A button is as wide stacked
        as in a row, so the width measured either way decides."""
        for row in self.query(".dialog-buttons"):
            buttons = list(row.query_children(Button))
            need = sum(b.outer_size.width + b.styles.margin.width for b in buttons)
            stacked = need > row.content_size.width
            row.set_class(stacked, "-stacked")
            for button in buttons:
                button.compact = stacked
