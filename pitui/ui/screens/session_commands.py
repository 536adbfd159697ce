"""What the session screen's keys do to its session: resume, copy, label, name, trash, export,
fork, context edits."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker

from pitui.core.changes.context_edit import has_edits, target_on_branch
from pitui.core.errors import PituiError
from pitui.core.export.build import session_title
from pitui.core.export.export import entry_markdown
from pitui.core.format.entry_types import EntryType
from pitui.core.format.migration import NEWER_FORMAT, is_newer
from pitui.core.live.live import LiveSession
from pitui.core.rows.render_text import entry_text
from pitui.core.rows.safe_text import one_line
from pitui.core.session.entry import Entry
from pitui.ui.app_base import PituiAppBase
from pitui.ui.branch_actions import ask_context_edit, ask_fork
from pitui.ui.modals.export import ask_export
from pitui.ui.session_actions import ask_label, ask_name, ask_trash
from pitui.ui.widgets.context_pane import ContextList, prepare_context
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.worker_messages import ContextBuilt

SHOWN_ENTRY_WIDTH = 50  # characters of the entry a dialog's title names (one line at 80x24)


class SessionHost(Protocol):
    """The screen the commands act for: its session and what it highlights."""

    path: Path
    live: LiveSession | None
    entry: Entry | None

    @property
    def app(self) -> PituiAppBase: ...

    @property
    def focused(self) -> Widget | None: ...

    @property
    def screen(self) -> Screen[object]:
        """The screen itself, as a widget (what the export dialog's worker runs on)."""

    def open_session(self, path: Path) -> None:
        """Show another session (a fork just written) over this one."""

    def notify(
        self, message: str, *, severity: SeverityLevel = "information", markup: bool = True
    ) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def run_worker(
        self,
        work: Callable[[], None],
        *,
        group: str,
        description: str,
        exit_on_error: bool,
        thread: bool,
    ) -> Worker[None]: ...


class SessionCommands:
    """The commands on the session and the highlighted entry; what they write is read back at
    once (in a thread worker of the screen's, whose failures the screen reports)."""

    def __init__(self, screen: SessionHost) -> None:
        self._screen = screen

    def _read_back(self, work: Callable[[], None]) -> None:
        """Run `work` in a thread worker of the screen's (which reports its failure)."""
        self._screen.run_worker(
            work, group="catch-up", description="re-reading", exit_on_error=False, thread=True
        )

    def resume(self) -> None:
        screen = self._screen
        screen.app.request_handoff(screen.path, screen.live.session.cwd if screen.live else "")

    def copy(self) -> None:
        if self._screen.entry is None:
            return
        text = entry_text(self._screen.entry)
        self._screen.app.copy_to_clipboard(text)
        self._screen.notify(f"Copied {len(text):,} characters")

    def copy_markdown(self) -> None:
        entry = self._screen.entry
        if entry is None or entry.type == EntryType.SESSION:
            return
        text = entry_markdown(entry.raw)
        self._screen.app.copy_to_clipboard(text)
        self._screen.notify(f"Copied {len(text):,} characters of Markdown")

    def label(self) -> None:
        screen = self._screen
        entry, live = screen.entry, screen.live
        if entry is None or live is None or entry.type == EntryType.SESSION:
            return
        if self._read_only(live):
            return
        with live.lock:
            current = live.session.tree.label_of(entry.id) or ""
        ask_label(screen.app, screen.path, entry.id, current, self._written, self._shown_entry())

    def _shown_entry(self) -> str:
        """The highlighted entry as its tree row reads (`user: Why is…`)."""
        row = self._screen.screen.query_one(EntryTree).highlighted_row
        if row is None:
            return "this entry"
        tag, _, body, _ = row.display()
        text = f"{tag}{body}"
        return text if len(text) <= SHOWN_ENTRY_WIDTH else text[: SHOWN_ENTRY_WIDTH - 1] + "…"

    def rename(self) -> None:
        live = self._screen.live
        if live is None or self._read_only(live):
            return
        with live.lock:
            current = live.session.tree.name or ""
        ask_name(self._screen.app, self._screen.path, current, self._written)

    def _written(self, note: str) -> None:
        self._screen.notify(note)
        self._read_back(self._catch_up)
        self._screen.app.session_written(self._screen.path)

    def _catch_up(self) -> None:
        """Worker thread: our own write shows at once, with or without the watcher."""
        if self._screen.live is not None:
            self._screen.live.apply_change()

    def export(self) -> None:
        screen = self._screen
        entry, live = screen.entry, screen.live
        if live is None:
            return
        leaf = None if entry is None or entry.type == EntryType.SESSION else entry.id
        with live.lock:
            title = session_title(live.session, leaf)
        ask_export(screen.screen, screen.path, leaf, title, "the branch of the highlighted entry")

    def trash(self) -> None:
        screen = self._screen
        name = screen.live.session.tree.name if screen.live else None
        ask_trash(screen.app, screen.path, name or screen.path.name)

    # -- branches: fork at an entry, context edits ----------------------------------------

    def fork_entry(self) -> None:
        screen = self._screen
        entry, live = screen.entry, screen.live
        if entry is None or live is None or entry.type == EntryType.SESSION:
            return
        ask_fork(screen.app, screen.path, entry.id, live.session.cwd, screen.open_session)

    def context_edit(self) -> None:
        live = self._screen.live
        target_id = self._edit_target_id()
        if live is None or target_id is None or self._read_only(live):
            return
        try:
            with live.lock:
                target = target_on_branch(live.session, target_id)
                edited = has_edits(live.session.tree, target_id)
        except PituiError as error:  # said before the dialog: off the branch, not a message
            self._screen.notify(one_line(str(error)), severity="warning", markup=False)
            return
        app, path = self._screen.app, self._screen.path
        ask_context_edit(app, path, target, self._context_edited, undo=edited)

    def _read_only(self, live: LiveSession) -> bool:
        """A session in a newer format is never written: said before any dialog opens."""
        with live.lock:
            newer = is_newer(live.session.header)
        if newer:
            self._screen.notify(
                f"{NEWER_FORMAT}: pitui reads this session, never writes it",
                severity="warning",
                markup=False,
            )
        return newer

    def _edit_target_id(self) -> str | None:
        """The message under the context pane's cursor when it has the focus, else the
        highlighted entry."""
        focused = self._screen.focused
        if isinstance(focused, ContextList) and (row := focused.highlighted_row) is not None:
            return row.entry_id
        return self._screen.entry.id if self._screen.entry is not None else None

    def _context_edited(self, note: str, edit_id: str | None) -> None:
        self._screen.notify(note, markup=False)
        self._screen.app.session_written(self._screen.path)
        self._read_back(partial(self._show_after_edit, edit_id))

    def _show_after_edit(self, edit_id: str | None) -> None:
        """Worker thread: read our own edit at once, then show the context from it (the
        file's new leaf), in place of the highlighted entry's, until the highlight moves."""
        live = self._screen.live
        if live is None:
            return
        live.apply_change()
        highlighted = self._screen.entry
        if edit_id is None or highlighted is None:
            return
        with live.lock:
            if live.session.tree.get(edit_id) is None:
                return
            view = prepare_context(live.session.context(leaf_id=edit_id))
        view.note = (
            f"as sent from the edit {edit_id}, the file's new leaf; moving the highlight shows "
            "the highlighted entry's context again"
        )
        self._screen.post_message(ContextBuilt(highlighted.id, view))
