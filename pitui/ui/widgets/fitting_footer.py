"""Textual's Footer, compact (one space between keys, not two) below 100 columns: at 80 the
session screen's keys pushed F1's "Help" label out of view. Its keys are let go of when it
is rebuilt (every change of the bindings), which Textual's Footer does not do."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

from pitui.ui.watches import forget_watches

COMPACT_BELOW = 100  # columns


class FittingFooter(Footer):
    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW

    async def recompose(self) -> None:
        # Each key watches the footer's `compact` (`data_bind`): kept, the watchers of the
        # keys removed here would keep them alive as long as the footer.
        for child in self.children:
            forget_watches(child, self)
        await super().recompose()
