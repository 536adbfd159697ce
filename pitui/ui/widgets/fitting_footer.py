"""Textual's Footer, compact (one space between keys, not two) below 100 columns: at 80 the
session screen's keys pushed F1's "Help" label out of view."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

COMPACT_BELOW = 100  # columns


class FittingFooter(Footer):
    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
