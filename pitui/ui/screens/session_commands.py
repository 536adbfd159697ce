"""What the session screen does: back, resume, copy, label, name, trash, export, fork, context
edits, the size view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import work
from textual.screen import Screen

from pitui.core.export.build import session_title
from pitui.core.live.live import LiveSession
from pitui.core.rows.render_text import entry_text
from pitui.ui.branch_actions import ask_context_edit, ask_fork
from pitui.ui.failures import ReportsFailures
from pitui.ui.modals.export import ask_export
from pitui.ui.screens.sizes import SizeViewScreen
from pitui.ui.session_actions import ask_label, ask_name, ask_trash
from pitui.ui.widgets.context_pane import ContextList, prepare_context
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.worker_messages import ContextBuilt


class SessionCommands(ReportsFailures, Screen[None]):
    """The session screen's actions (mixed into `SessionScreen`)."""

    path: Path
    standalone: bool
    live: LiveSession | None
    entry: Any

    def _clear_search(self) -> None:
        """Every row shown again, the search bar hidden."""
        self.query_one(EntryTree).clear_search()
        self.query_one("#tree-search-bar").display = False

    def action_back(self) -> None:
        """Esc: clear the search first (as Pi's /tree), then restore a pane, then leave."""
        tree = self.query_one(EntryTree)
        if tree.typed or tree.query:
            self._clear_search()
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

    def action_copy_markdown(self) -> None:
        entry = self.entry
        if entry is None or getattr(entry, "type", None) == "session":
            return
        from pitui.core.export.export import entry_markdown  # the exporter: only when asked

        text = entry_markdown(entry.raw)
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {len(text):,} characters of Markdown")

    def action_export(self) -> None:
        entry, live = self.entry, self.live
        if live is None:
            return
        leaf = None if entry is None or getattr(entry, "type", None) == "session" else entry.id
        with live.lock:
            title = session_title(live.session, leaf)
        ask_export(self, self.path, leaf, title, "the branch of the highlighted entry")

    def action_trash(self) -> None:
        name = self.live.session.tree.name if self.live else None
        ask_trash(self.app, self.path, name or self.path.name)

    # -- branches: fork at an entry, context edits ----------------------------------------

    def action_fork_entry(self) -> None:
        entry, live = self.entry, self.live
        if entry is None or live is None or getattr(entry, "type", None) == "session":
            return
        ask_fork(self.app, self.path, entry.id, live.session.cwd, self._open_fork)

    def _open_fork(self, path: Path) -> None:
        self.app.push_screen(type(self)(path))  # type: ignore[call-arg] (a SessionScreen)

    def action_context_edit(self) -> None:
        live = self.live
        target_id = self._edit_target_id()
        if live is None or target_id is None:
            return
        with live.lock:
            target = live.session.tree.get(target_id)
        if target is not None:
            ask_context_edit(self.app, self.path, target, self._context_edited)

    def _edit_target_id(self) -> str | None:
        """The message under the context pane's cursor when it has the focus, else the
        highlighted entry."""
        focused = self.focused
        if isinstance(focused, ContextList) and 0 <= focused.cursor < len(focused.rows):
            return focused.rows[focused.cursor].entry_id
        return self.entry.id if self.entry is not None else None

    def _context_edited(self, note: str, edit_id: str | None) -> None:
        self.notify(note, markup=False)
        self.app.session_written(self.path)
        self._show_after_edit(edit_id)

    @work(thread=True, group="catch-up", exit_on_error=False, description="re-reading")
    def _show_after_edit(self, edit_id: str | None) -> None:
        """Read our own edit at once, then show the context from it (the file's new leaf),
        in place of the highlighted entry's, until the highlight moves."""
        live = self.live
        if live is None:
            return
        live.apply_change()
        highlighted = self.entry
        if edit_id is None or highlighted is None:
            return
        with live.lock:
            if live.session.tree.get(edit_id) is None:
                return
            view = prepare_context(live.session.context(leaf_id=edit_id))
        view.note = f"shown from the new leaf {edit_id} (the edit); move to go back"
        self.post_message(ContextBuilt(highlighted.id, view))

    # -- sizes: what makes the session large --------------------------------------------

    def action_sizes(self) -> None:
        self.app.push_screen(SizeViewScreen(self.path), self._jump_to_entry)

    def _jump_to_entry(self, entry_id: str | None) -> None:
        """Move the tree's cursor to `entry_id`, clearing a search and showing every entry
        first if the filter hides it; in a folded branch, to its nearest shown ancestor."""
        tree = self.query_one(EntryTree)
        model = tree.model
        if entry_id is None or model is None:
            return
        if model.tree.get(entry_id) is None:
            self.notify("That line is not an entry of the tree (the session header?)")
            return
        if tree.typed or tree.query:  # a search shows only its matches: show every row
            self._clear_search()
        if model.row_of(entry_id) is None and tree.filter != "all":
            tree.set_filter("all")  # the filter hid it; the user asked to see it
        tree.move_to_entry(entry_id)
        if model.index_of(entry_id) is None:
            self.notify("The entry is in a folded branch: on its nearest shown ancestor")
        if tree.display:
            tree.focus()
