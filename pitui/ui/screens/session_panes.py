"""The session screen's panes: which are shown, which is maximised, how wide the tree is.

Below `NARROW_WIDTH` columns the screen shows the tree and one other pane (2 / 3 switch it);
the tree's share and the hidden panes are remembered between runs (`pitui.ui.settings`).
"""

from __future__ import annotations

from textual.css.scalar import Scalar, Unit
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

from pitui.ui.app_base import PituiAppBase
from pitui.ui.settings import TREE_SHARE_RANGE

PANES = {"tree": "#entry-tree", "message": "#message-pane", "context": "#context-pane"}
NARROW_WIDTH = 120  # below this, the tree and one other pane


class PaneLayout:
    """Showing, hiding, sizing and maximising the panes of a session screen."""

    def __init__(self, screen: Screen[None]) -> None:
        self._screen = screen
        self._auto_hidden: str | None = None  # a pane hidden because the screen is narrow

    @property
    def _app(self) -> PituiAppBase:
        app = self._screen.app
        assert isinstance(app, PituiAppBase)  # as `getters.app` asserts for a screen
        return app

    def _pane(self, name: str) -> Widget:
        return self._screen.query_one(PANES[name])

    def apply(self) -> None:
        """The remembered layout, fitted to the screen's width."""
        settings = self._app.config.settings
        for name in settings.hidden_panes:
            self._pane(name).display = False
        self._set_tree_share(settings.tree_share)
        self.fit_width(self._screen.size.width)

    @property
    def narrow(self) -> bool:
        return self._screen.has_class("-narrow")

    def fit_width(self, width: int) -> None:
        if not width:
            return  # not laid out yet
        self._screen.set_class(width < NARROW_WIDTH, "-narrow")
        message, context = self._pane("message"), self._pane("context")
        if self.narrow and message.display and context.display:
            context.display, self._auto_hidden = False, "context"
        elif not self.narrow and self._auto_hidden is not None:
            self._pane(self._auto_hidden).display = True
            self._auto_hidden = None

    def toggle(self, name: str) -> None:
        widget = self._pane(name)
        others = {"message": "context", "context": "message"}
        if self.narrow and name in others and not widget.display:
            other = self._pane(others[name])  # narrow: switch the second pane
            had_focus = self._focused_pane() is other
            if other.display:
                other.display, self._auto_hidden = False, others[name]
            widget.display = True
            if had_focus:  # else the focus stays where it is: the tree, as a rule
                _focus_in(widget)
            return
        visible = [n for n in PANES if self._pane(n).display]
        if widget.display and visible == [name]:
            self._screen.notify("At least one pane stays visible", severity="warning")
            return
        widget.display = not widget.display
        if widget.display:
            _focus_in(widget)
        elif (focused := self._screen.focused) is None or not focused.display:
            next(self._pane(n) for n in PANES if self._pane(n).display).focus()
        self._remember_panes()

    def _remember_panes(self) -> None:
        if self.narrow:
            return  # what a narrow screen hides is not the user's layout
        hidden = [n for n in PANES if not self._pane(n).display]
        self._app.remember(hidden_panes=hidden)

    def resize_tree(self, step: int) -> None:
        """Give the tree more (step > 0) or less of the width; remembered."""
        low, high = TREE_SHARE_RANGE
        share = max(low, min(high, self._app.config.settings.tree_share + step))
        self._set_tree_share(share)
        self._app.remember(tree_share=share)

    def _set_tree_share(self, share: int) -> None:
        self._pane("tree").styles.width = Scalar(float(share), Unit.FRACTION, Unit.WIDTH)

    def maximise(self) -> None:
        """The focused pane fills the screen; again: the panes are restored."""
        screen = self._screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pane = self._focused_pane()
        if pane is not None:
            screen.maximized = pane  # not `maximize()`: the context pane is a container

    def _focused_pane(self) -> Widget | None:
        node: DOMNode | None = self._screen.focused
        while node is not None and node.id not in {s[1:] for s in PANES.values()}:
            node = node.parent
        return node if isinstance(node, Widget) else None


def _focus_in(pane: Widget) -> None:
    """Focus `pane`, or for a container (the context pane) the first widget in it that takes
    the focus."""
    if pane.focusable:
        pane.focus()
        return
    inside = next((w for w in pane.query("*") if w.focusable), None)
    if inside is not None:
        inside.focus()
