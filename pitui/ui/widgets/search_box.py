"""The picker's search box: an `Input` that only types and edits its text.

Every other key (Enter, Tab, the arrows that move the list, Ctrl and Alt keys) goes on, in the
order typed, to the screen's bindings: they are not priority bindings that would overtake
characters still on their way to the box. Textual gives Alt+letter the letter as its
character, so such a key is kept from typing it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

MODIFIERS = frozenset({"ctrl", "alt", "super", "meta", "hyper"})


def types_text(event: events.Key) -> bool:
    """The key types its character: printable, and pressed without Ctrl or Alt (Shift is
    already in the character)."""
    modifiers = event.key.split("+")[:-1]
    return event.is_printable and not MODIFIERS.intersection(modifiers)


class SearchBox(Input, inherit_bindings=False):
    """Editing keys only; the keys the screen uses (Enter, Ctrl+E, Ctrl+D, Ctrl+K...) reach it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor_left", "Cursor left", show=False),
        Binding("right", "cursor_right", "Cursor right", show=False),
        Binding("ctrl+left", "cursor_left_word", "Word left", show=False),
        Binding("ctrl+right", "cursor_right_word", "Word right", show=False),
        Binding("home", "home", "Start of the search", show=False),
        Binding("end", "end", "End of the search", show=False),
        Binding("backspace", "delete_left", "Delete left", show=False),
        Binding("delete", "delete_right", "Delete right", show=False),
        Binding("ctrl+w,alt+backspace", "delete_left_word", "Delete a word left", show=False),
        Binding("ctrl+u", "delete_left_all", "Delete to the start", show=False),
    ]

    def on_key(self, event: events.Key) -> None:
        if not types_text(event):
            event.prevent_default()  # not Input's handler: it would type Alt+E's "e"
