"""A one-line field that takes a paste as Pi's editor does."""

from __future__ import annotations

import re
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

# Pi's editor keys (pi-tui `tui.editor.*`) that Textual's Input lacks
PI_EDITOR_KEYS: list[BindingType] = [
    Binding("ctrl+b", "cursor_left", "Cursor left", show=False),
    Binding("ctrl+f", "cursor_right", "Cursor right", show=False),
    Binding("alt+left,alt+b", "cursor_left_word", "Word left", show=False),
    Binding("alt+right,alt+f", "pi_word_end", "Word right", show=False),
    Binding("alt+d,alt+delete", "pi_delete_to_word_end", "Delete a word right", show=False),
]
_TO_WORD_END = re.compile(r"\s*\S*")  # as Pi: past the spaces, then to the end of the word


class PiInput(Input):
    """A field that keeps a pasted text whole, as Pi's editor does: its line breaks dropped,
    each tab four spaces (Textual's Input kept only the first line, silently); Pi's editor
    keys that Textual's lacks (Ctrl+B, Ctrl+F, Alt+B, Alt+F, Alt+D)."""

    BINDINGS: ClassVar[list[BindingType]] = PI_EDITOR_KEYS

    def action_pi_word_end(self) -> None:
        self.cursor_position = _word_end(self.value, self.cursor_position)

    def action_pi_delete_to_word_end(self) -> None:
        self.delete(self.cursor_position, _word_end(self.value, self.cursor_position))

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # not Input's own: the first line only
        text = event.text.replace("\r\n", "").replace("\r", "").replace("\n", "")
        text = text.replace("\t", "    ")
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)


def _word_end(text: str, at: int) -> int:
    found = _TO_WORD_END.match(text, at)
    return found.end() if found else at
