"""A message about the widget that posted it."""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


class WidgetMessage(Message):
    """`control` is the posting widget, so screens can select on it (`@on(..., "#id")`)."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    @property
    def control(self) -> Widget:
        return self.widget
