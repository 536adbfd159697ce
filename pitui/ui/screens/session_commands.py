"""What the session screen does: back, resume, copy, label, name, trash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.screen import Screen
from textual.widgets import Input

from pitui.core.live.live import LiveSession
from pitui.core.rows.render_text import entry_text
from pitui.ui.failures import ReportsFailures
from pitui.ui.session_actions import ask_label, ask_name, ask_trash
from pitui.ui.widgets.entry_tree import EntryTree


class SessionCommands(ReportsFailures, Screen[None]):
    """The session screen's actions (mixed into `SessionScreen`)."""

    path: Path
    standalone: bool
    live: LiveSession | None
    entry: Any

    def _close_search(self, *, clear: bool) -> None:
        """Enter: keep the search's rows, back to the tree; Esc: show every row again."""
        search = self.query_one("#tree-search", Input)
        tree = self.query_one(EntryTree)
        if clear:
            search.value = ""
            tree.search("")
        search.set_class(False, "-no-match")
        self.query_one("#tree-search-bar").display = bool(tree.query)
        tree.focus()

    def action_back(self) -> None:
        """Esc: clear the search first (as Pi's /tree), then restore a pane, then leave."""
        if self.focused is self.query_one("#tree-search") or self.query_one(EntryTree).query:
            self._close_search(clear=True)
        elif self.maximized is not None:
            self.minimize()
        elif self.standalone:
            self.app.exit()
        else:
            self.app.pop_screen()

    def action_resume(self) -> None:
        cwd = self.live.session.cwd if self.live else ""
        self.app.request_handoff(self.path, cwd)

    def action_copy(self) -> None:
        if self.entry is None:
            return
        text = entry_text(self.entry)
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {len(text):,} characters")

    def action_label(self) -> None:
        entry, live = self.entry, self.live
        if entry is None or live is None or getattr(entry, "type", None) == "session":
            return
        with live.lock:
            current = live.session.tree.label_of(entry.id) or ""
        ask_label(self.app, self.path, entry.id, current, self._written)

    def action_rename(self) -> None:
        if self.live is None:
            return
        with self.live.lock:
            current = self.live.session.tree.name or ""
        ask_name(self.app, self.path, current, self._written)

    def _written(self, note: str) -> None:
        self.notify(note)
        self._catch_up()
        self.app.session_written(self.path)

    @work(thread=True, group="catch-up", exit_on_error=False, description="re-reading")
    def _catch_up(self) -> None:
        """Our own write shows at once, with or without the watcher."""
        if self.live is not None:
            self.live.apply_change()

    def action_trash(self) -> None:
        name = self.live.session.tree.name if self.live else None
        ask_trash(self.app, self.path, name or self.path.name)
