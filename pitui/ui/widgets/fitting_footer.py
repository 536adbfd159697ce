"""Textual's Footer, compact (one space between keys, not two) below 100 columns, that gives
up the keys named in `drop_first` when they do not fit, then others from the right: at 80
columns the session screen's keys pushed F1's "Help" label out of view. Every key a footer
drops is in the help (F1). Its keys are let go of when it is rebuilt (every change of the
bindings), which Textual's Footer does not do."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer

from pitui.ui.keymap import UNBOUND
from pitui.ui.watches import forget_watches

COMPACT_BELOW = 100  # columns


class FittingFooter(Footer):
    def __init__(self, *, drop_first: Sequence[str] = (), id: str | None = None) -> None:
        super().__init__(id=id)
        self.drop_first = tuple(drop_first)
        """The actions whose keys are hidden, in this order, while the keys do not fit."""

    async def recompose(self) -> None:
        # Each key watches the footer's `compact` (`data_bind`): kept, the watchers of the
        # keys removed here would keep them alive as long as the footer.
        for child in self.children:
            forget_watches(child, self)
        await super().recompose()
        self.call_after_refresh(self._fit)

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Hide the `drop_first` keys while the keys do not fit, then, if they still do not
        (a pane adds its own keys), others from the right: never Esc, F1 or the palette,
        and never a label cut in the middle."""
        keys = []
        for key in self.query("FooterKey"):
            key.display = getattr(key, "key", None) != UNBOUND  # unbound in keybindings.json
            if key.display:
                keys.append(key)
        excess = sum(_width(key) for key in keys) - self.size.width
        if keys:  # the last key's right margin (compact: 1) may lie under the palette's key
            excess -= keys[0].styles.margin.right
        ordered = [key for action in self.drop_first for key in keys if _action(key) == action]
        ordered += [key for key in reversed(keys) if _action(key) not in (*self.drop_first, *KEPT)]
        for key in ordered:
            key.display = excess <= 0
            if not key.display:
                excess -= _width(key)


KEPT = ("back", "leave", "help", "command_palette")  # the way out, the help, the palette


def _action(key: Widget) -> str | None:
    return getattr(key, "action", None)


def _width(key: Widget) -> int:
    """The columns a key takes, shown or not (its text carries its padding)."""
    text_width = key.get_content_width(Size(0, 0), Size(0, 0))
    return text_width + key.styles.gutter.width + key.styles.margin.width
