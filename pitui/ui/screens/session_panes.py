"""The session screen's panes: which are shown, which is maximised."""

from __future__ import annotations

from textual.screen import Screen
from textual.widget import Widget

PANES = {"tree": "#entry-tree", "message": "#message-pane", "context": "#context-pane"}


class SessionPanes(Screen[None]):
    """Showing, hiding and maximising panes (mixed into `SessionScreen`)."""

    def action_toggle_pane(self, name: str) -> None:
        widget = self.query_one(PANES[name])
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
