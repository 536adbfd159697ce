"""Keys in the order typed, and the picker's search box: an `Input` that only types and
edits its text.

Textual runs a widget's bindings once its key has bubbled up to the app, so a key the widget
takes itself (a character typed into a box or a search) can overtake a bound key pressed
before it: a burst of Ctrl+U then text would lose the text. `run_binding_now` runs the
binding where the key arrives, in order. Textual gives Alt+letter the letter as its character,
so such a key is kept from typing it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from pitui.ui.widgets.pi_input import PI_EDITOR_KEYS, PiInput

MODIFIERS = frozenset({"ctrl", "alt", "super", "meta", "hyper"})


def types_text(event: events.Key) -> bool:
    """The key types its character: printable, and pressed without Ctrl or Alt (Shift is
    already in the character)."""
    modifiers = event.key.split("+")[:-1]
    return event.is_printable and not MODIFIERS.intersection(modifiers)


async def run_binding_now(widget: Widget, event: events.Key) -> bool:
    """Run the binding the screen has for `event`'s key now (True: there was one)."""
    active = widget.screen.active_bindings.get(event.key)
    if active is None or not active.enabled:
        return False
    event.stop()
    event.prevent_default()
    await widget.app.run_action(active.binding.action, active.node)
    return True


class SearchBox(PiInput, inherit_bindings=False):
    """Editing keys only; the keys the screen uses (Enter, Ctrl+O, Ctrl+D, Ctrl+K...) reach it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor_left", "Cursor left", show=False),
        Binding("right", "cursor_right", "Cursor right", show=False),
        Binding("ctrl+left", "cursor_left_word", "Word left", show=False),
        Binding("ctrl+right", "cursor_right_word", "Word right", show=False),
        *PI_EDITOR_KEYS,
        Binding("home,ctrl+a", "home", "Start of the search", show=False),
        Binding("end,ctrl+e", "end", "End of the search", show=False),
        Binding("backspace", "delete_left", "Delete left", show=False),
        Binding("delete", "delete_right", "Delete right", show=False),
        Binding("ctrl+w,alt+backspace", "delete_left_word", "Delete a word left", show=False),
        Binding("ctrl+u", "delete_left_all", "Delete to the start", show=False),
    ]

    async def on_key(self, event: events.Key) -> None:
        if not types_text(event) and not await run_binding_now(self, event):
            event.prevent_default()  # not Input's handler: it would type Alt+E's "e"
