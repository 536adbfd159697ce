"""The session screen's panes: which are shown, which is maximised, how wide the tree is.

Below `NARROW_WIDTH` columns the screen shows the tree and one other pane (2 / 3 switch it);
the tree's share and the hidden panes are remembered between runs (`pitui.ui.settings`).
"""

from __future__ import annotations

from textual import events
from textual.css.scalar import Scalar, Unit
from textual.screen import Screen
from textual.widget import Widget

from pitui.ui.settings import TREE_SHARE_RANGE

PANES = {"tree": "#entry-tree", "message": "#message-pane", "context": "#context-pane"}
NARROW_WIDTH = 120  # below this, the tree and one other pane


class SessionPanes(Screen[None]):
    """Showing, hiding, sizing and maximising panes (mixed into `SessionScreen`)."""

    _auto_hidden: str | None = None  # a pane hidden because the screen is narrow

    def apply_layout(self) -> None:
        """The remembered layout, fitted to the screen's width."""
        settings = self.app.config.settings  # type: ignore[attr-defined]
        for name in settings.hidden_panes:
            self.query_one(PANES[name]).display = False
        self._set_tree_share(settings.tree_share)
        self._fit_width(self.size.width)

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def on_resize(self, event: events.Resize) -> None:
        self._fit_width(event.size.width)

    def _fit_width(self, width: int) -> None:
        if not width:
            return  # not laid out yet
        self.set_class(width < NARROW_WIDTH, "-narrow")
        message, context = self.query_one(PANES["message"]), self.query_one(PANES["context"])
        if self.narrow and message.display and context.display:
            context.display, self._auto_hidden = False, "context"
        elif not self.narrow and self._auto_hidden is not None:
            self.query_one(PANES[self._auto_hidden]).display = True
            self._auto_hidden = None

    def action_toggle_pane(self, name: str) -> None:
        widget = self.query_one(PANES[name])
        others = {"message": "context", "context": "message"}
        if self.narrow and name in others and not widget.display:
            other = self.query_one(PANES[others[name]])  # narrow: switch the second pane
            if other.display:
                other.display, self._auto_hidden = False, others[name]
            widget.display = True
            widget.focus()
            return
        visible = [n for n, sel in PANES.items() if self.query_one(sel).display]
        if widget.display and visible == [name]:
            self.notify("At least one pane stays visible", severity="warning")
            return
        widget.display = not widget.display
        if widget.display:
            widget.focus()
        elif self.focused is None or not self.focused.display:
            next_pane = next(
                self.query_one(PANES[n]) for n in PANES if self.query_one(PANES[n]).display
            )
            next_pane.focus()
        self._remember_panes()

    def _remember_panes(self) -> None:
        if self.narrow:
            return  # what a narrow screen hides is not the user's layout
        hidden = [n for n, sel in PANES.items() if not self.query_one(sel).display]
        self.app.remember(hidden_panes=hidden)  # type: ignore[attr-defined]

    def action_resize_tree(self, step: int) -> None:
        """Give the tree more (step > 0) or less of the width; remembered."""
        low, high = TREE_SHARE_RANGE
        share = self.app.config.settings.tree_share  # type: ignore[attr-defined]
        share = max(low, min(high, share + step))
        self._set_tree_share(share)
        self.app.remember(tree_share=share)  # type: ignore[attr-defined]

    def _set_tree_share(self, share: int) -> None:
        self.query_one(PANES["tree"]).styles.width = Scalar(float(share), Unit.FRACTION, Unit.WIDTH)

    def action_maximise(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        pane = self._focused_pane()
        if pane is not None:
            self.maximized = pane  # not `maximize()`: the context pane is a container

    def _focused_pane(self) -> Widget | None:
        node = self.focused
        while node is not None and node.id not in {s[1:] for s in PANES.values()}:
            node = node.parent  # type: ignore[assignment]
        return node if isinstance(node, Widget) else None
