"""A one-line field that takes a paste as Pi's editor does."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class PiInput(Input):
    """A field that keeps a pasted text whole, as Pi's editor does: its line breaks dropped,
    each tab four spaces (Textual's Input kept only the first line, silently)."""

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # not Input's own: the first line only
        text = event.text.replace("\r\n", "").replace("\r", "").replace("\n", "")
        text = text.replace("\t", "    ")
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)
