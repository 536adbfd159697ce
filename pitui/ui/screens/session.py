"""One session: entry tree | message pane | context preview, following the file live."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState, get_current_worker

from pitui.core.format.migration import NEWER_FORMAT, is_newer
from pitui.core.live.live import EntriesAppended, LiveSession, SessionGone, SessionReloaded
from pitui.core.rows.rows import TreeRows
from pitui.core.rows.safe_text import one_line
from pitui.core.session.reader import NotASession
from pitui.ui.display_text import tilde
from pitui.ui.failures import ReportsFailures
from pitui.ui.screens.session_commands import SessionCommands
from pitui.ui.screens.session_keys import SESSION_BINDINGS
from pitui.ui.screens.session_panes import SessionPanes
from pitui.ui.screens.session_tail import SessionTail
from pitui.ui.widgets.context_pane import ContextPane, prepare_context
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.message_pane import MessagePane
from pitui.ui.widgets.search_box import run_binding_now, types_text
from pitui.ui.worker_messages import (
    CatalogChanged,
    ContextBuilt,
    LiveAppended,
    LiveGone,
    LiveReloaded,
    SessionLoaded,
    SessionProgress,
    TreeSearched,
)

CONTEXT_DELAY = 0.08  # seconds the highlight rests before the context is built
RETRY_EVERY = 1.0  # a file that is not a session yet (e.g. empty): look again this often


class SessionHeader(Static, can_focus=True):
    """The session's title row; Enter here hands the session to pi (as on Pi's header)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "screen.resume",
            "Resume",
            id="session.header_resume",
            tooltip="Resume this session in pi",
        ),
    ]


class SessionScreen(SessionPanes, SessionCommands, SessionTail, ReportsFailures, Screen[None]):
    """Loads in a thread worker; live events arrive from the watcher thread as messages."""

    BINDINGS: ClassVar[list[BindingType]] = SESSION_BINDINGS

    def __init__(self, path: Path, *, standalone: bool = False, search: str = "") -> None:
        """`search`: the tree's search once loaded, the cursor on its first match (a session
        opened from a search)."""
        super().__init__(classes="session-screen")
        self.path = Path(path).absolute()
        self.standalone = standalone
        self._opening_search = search
        self.live: LiveSession | None = None
        self.entry: Any = None
        self.gone: str | None = None
        self._unsubscribe: Any = None
        self._unsubscribe_store: Any = None
        self._context_timer: Timer | None = None
        self._waiting_size: int | None = None  # not a session yet: its size when last read
        self._retry_timer: Timer | None = None

    # -- layout and loading --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SessionHeader(Text(one_line(str(self.path)), style="bold"), id="session-title")
        yield Static(id="session-notice")
        tail = VerticalScroll(id="session-tail")
        tail.can_focus = False  # a preview while loading: no keys, no stop on Tab
        with Horizontal(id="panes"):
            yield EntryTree(id="entry-tree")
            yield MessagePane(id="message-pane")
            yield ContextPane(id="context-pane")
            with tail:  # over the panes, which stay: the tree keeps the focus and its keys
                yield Static(id="session-tail-text")
        with Horizontal(id="tree-search-bar"):
            yield Static(id="tree-search")
            yield Static(id="tree-search-count")
        yield Footer()

    def on_mount(self) -> None:
        self.apply_layout()
        self.query_one("#panes").loading = True
        self.set_focus(self.query_one(EntryTree), scroll_visible=False)
        self._load(self.query_one(EntryTree).filter)
        if self.standalone:  # no picker to show the watcher's notices
            self._unsubscribe_store = self.app.hub.subscribe(self._hub_changed)

    def _hub_changed(self, event: Any) -> None:
        """Watcher thread (or this one, for a standing notice): only post."""
        if event.notice:
            self.post_message(CatalogChanged(notice=event.notice))

    def on_catalog_changed(self, message: CatalogChanged) -> None:
        if message.notice:
            self.notify(message.notice, severity="warning", markup=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.group == "load":
            self.query_one("#panes").loading = False
            self.remove_class("-reading")
            error = event.worker.error
            waiting = isinstance(error, NotASession) and self.live is None
            hint = " - it opens as soon as it becomes one" if waiting else ""
            self._show_gone(f"cannot open this session: {error}{hint}")
            if waiting:
                self._wait_for_session()

    def _wait_for_session(self) -> None:
        """An empty (or not yet a session) file: load it as soon as it grows."""
        if self._retry_timer is None:
            self._retry_timer = self.set_interval(RETRY_EVERY, self._check_grown)
        self._check_grown()

    @work(thread=True, group="grown", exclusive=True, exit_on_error=False, description="waiting")
    def _check_grown(self) -> None:
        size = self._size_now()
        if size is None:
            return
        if self._waiting_size is None:
            self._waiting_size = size
        elif size != self._waiting_size:
            self._waiting_size = size
            self.post_message(LiveReloaded())  # reads it again, in the load worker

    def _size_now(self) -> int | None:
        """Worker thread: the file's size now (None if it cannot be seen)."""
        try:
            return self.path.stat().st_size
        except OSError:
            return None

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._unsubscribe_store is not None:
            self._unsubscribe_store()
        self.app.live.close_session(self.path)

    @work(
        thread=True,
        exclusive=True,
        group="load",
        exit_on_error=False,
        description="reading the session",
    )
    def _load(self, filter: str) -> None:
        """Read the file and build the tree's rows (which read what they show of tool calls)."""
        if self.live is None:
            self.peek()
        try:
            live = self.app.hub.open(self.path, progress=self._reading)
        except NotASession:
            self._waiting_size = self._size_now()  # what was read: a change from it reloads
            raise
        self.post_message(SessionProgress(0, 0))
        with live.lock:
            rows = TreeRows(live.session.tree, filter)
        self.post_message(SessionLoaded(live.session, live, rows))

    def _reading(self, done: int, total: int) -> None:
        """Worker thread: only post."""
        self.post_message(SessionProgress(done, total))

    def on_session_progress(self, message: SessionProgress) -> None:
        if self.live is not None:
            return  # a reload: the rows are rebuilt behind the tree shown
        if message.total:
            share = f"{message.done * 100 // message.total}%"
            sizes = f"{message.done / 1e6:,.0f} of {message.total / 1e6:,.0f} MB"
            text = f"reading the session: {share} ({sizes})"
        else:
            text = "building the tree"
        self.query_one("#session-notice", Static).update(text)
        self.add_class("-reading")

    def on_session_loaded(self, message: SessionLoaded) -> None:
        if self._retry_timer is not None:
            self._retry_timer.stop()
            self._retry_timer, self._waiting_size = None, None
        first = self.live is None
        self.live = message.live
        self.end_peek()
        self.query_one("#panes").loading = False
        self.remove_class("-reading")
        if self.gone is None:
            self.query_one("#session-notice", Static).update("")
        with self.live.lock:
            tree = self.live.session.tree
            self.query_one(EntryTree).load(tree, message.rows)
            if self._unsubscribe is None:
                self._unsubscribe = self.live.subscribe(self._live_event)
        self._update_title()
        if self.live.gone:
            self._show_gone(self.live.gone)
        tree = self.query_one(EntryTree)
        if first and tree.display:
            self.set_focus(tree, scroll_visible=False)
        if first and self._opening_search and not tree.typed:
            tree.type_search(self._opening_search)
        else:
            self._opening_search = ""

    async def on_key(self, event: events.Key) -> None:
        """From a pane (the tree handles its own): a bound key runs now, in the order typed;
        a key that types goes on the tree's search, as in Pi."""
        tree = self.query_one(EntryTree)
        if self.focused is tree or await run_binding_now(self, event):
            return
        if types_text(event):
            event.stop()
            tree.type_search(tree.typed + (event.character or ""))

    def _update_title(self) -> None:
        """Two lines: the name, then what the tree shows (filter, entries, problems), kept
        whole at any width (the name gives way); then where the session lives."""
        session = self.live.session if self.live else None
        if session is None:
            return
        home = self.app.config.home
        status = self._title_status(session)
        header = self.query_one("#session-title", Static)
        room = max(8, header.content_region.width - status.cell_len)
        name = Text(one_line(session.tree.name or "(unnamed session)"))
        name.stylize("bold" if session.tree.name else "bold dim")
        name.truncate(room, overflow="ellipsis")
        place = Text(one_line(tilde(session.cwd, home)), style="cyan", no_wrap=True)
        place.append(f"  {one_line(tilde(str(self.path), home))}", style="dim")
        place.truncate(max(8, header.content_region.width), overflow="ellipsis")
        header.update(Text.assemble(name, status, "\n", place, no_wrap=True))

    def _title_status(self, session: Any) -> Text:
        tree = self.query_one(EntryTree)
        count = len(session.tree.entries)
        status = Text(f"  filter: {tree.filter}", style="bold")
        if tree.label_times:
            status.append(" +label time")
        status.append(f"  {count:,} {'entry' if count == 1 else 'entries'}", style="dim")
        if session.diagnostics:
            status.append(f"  {len(session.diagnostics)} problems", style="yellow")
        if is_newer(session.header):
            status.append(f"  {NEWER_FORMAT}: read only", style="yellow")
        return status

    def on_resize(self) -> None:
        self._update_title()

    # -- live ----------------------------------------------------------------------------

    def _live_event(self, event: Any) -> None:
        """Watcher thread, session lock held: only post."""
        if isinstance(event, EntriesAppended):
            self.post_message(LiveAppended(list(event.entries)))
        elif isinstance(event, SessionReloaded):
            self.post_message(LiveReloaded())
        elif isinstance(event, SessionGone):
            self.post_message(LiveGone(event.reason))

    def on_live_appended(self, message: LiveAppended) -> None:
        if self.live is None:
            return
        with self.live.lock:
            self.query_one(EntryTree).append(message.entries)
        self._update_title()

    def on_live_reloaded(self, message: LiveReloaded) -> None:
        if self.live is None and self._retry_timer is None:
            return
        self.gone = None
        self.query_one("#session-notice", Static).update("")
        self.remove_class("-gone")
        self._load(self.query_one(EntryTree).filter)  # the rows of the new tree, in a worker

    def on_live_gone(self, message: LiveGone) -> None:
        self._show_gone(message.reason)

    def _show_gone(self, reason: str) -> None:
        self.gone = reason
        notice = Text(f"⚠ {one_line(reason)}")
        if self.live is not None:
            notice.append(" - what is shown is the last state read.")
        self.query_one("#session-notice", Static).update(notice)
        self.add_class("-gone")

    # -- highlight -> message and context ------------------------------------------------

    @on(EntryTree.Highlighted)
    def _highlighted(self, event: EntryTree.Highlighted) -> None:
        self.entry = event.entry
        self._update_count()
        tree = self.live.session.tree if self.live else None
        self.query_one(MessagePane).show_entry(event.entry, tree)
        if self._context_timer is not None:
            self._context_timer.stop()
        if event.entry is not None:
            self._context_timer = self.set_timer(CONTEXT_DELAY, self._request_context)
        else:  # no row left (a filter matches none): show nothing stale
            self.query_one(ContextPane).show_context(None)

    def _request_context(self) -> None:
        if self.entry is not None and self.live is not None:
            self._build_context(self.entry.id)

    @work(
        thread=True,
        exclusive=True,
        group="context",
        exit_on_error=False,
        description="building the context",
    )
    def _build_context(self, entry_id: str) -> None:
        live = self.live
        assert live is not None
        with live.lock:
            context = live.session.context(leaf_id=entry_id)
        view = prepare_context(context)
        if not get_current_worker().is_cancelled:
            self.post_message(ContextBuilt(entry_id, view))

    def on_context_built(self, message: ContextBuilt) -> None:
        if self.entry is not None and self.entry.id == message.entry_id:
            self.query_one(ContextPane).show_context(message.context)

    @on(ContextPane.EntrySelected)
    def _context_row_chosen(self, event: ContextPane.EntrySelected) -> None:
        tree = self.query_one(EntryTree)
        tree.move_to_entry(event.entry_id)
        if tree.display:
            tree.focus()

    @on(EntryTree.Selected)
    def _selected(self, event: EntryTree.Selected) -> None:
        """Enter on an entry: read it in the message pane."""
        pane = self.query_one(MessagePane)
        if pane.display:
            pane.focus()

    @on(EntryTree.FilterChanged)
    def _filter_changed(self, event: EntryTree.FilterChanged) -> None:
        self.notify(f"Filter: {event.filter}", timeout=2)
        self._update_title()

    @on(EntryTree.LabelTimesToggled)
    def _label_times_toggled(self, event: EntryTree.LabelTimesToggled) -> None:
        self.notify(f"Label times: {'shown' if event.shown else 'hidden'}", timeout=2)
        self._update_title()

    @on(EntryTree.SearchTyped)
    def _search_typed(self, event: EntryTree.SearchTyped) -> None:
        """Show the search as typed, and search in a worker (the answer may come later)."""
        bar = Text("Search: ", style="bold")
        bar.append(one_line(event.text))
        bar.append("   Esc clears · Ctrl+N/Ctrl+P next/previous", style="dim")
        self.query_one("#tree-search", Static).update(bar)
        self.query_one("#tree-search-bar").display = bool(event.text)
        self._search_tree(event.text)

    @work(
        thread=True,
        exclusive=True,
        group="tree-search",
        exit_on_error=False,
        description="searching the tree",
    )
    def _search_tree(self, text: str) -> None:
        """Off the UI thread: the first search of a large session reads every row's text
        (once: a search typed meanwhile waits for it, and one typed after it skips it)."""
        model = self.query_one(EntryTree).model
        if model is not None:
            model.prepare_search()
        if get_current_worker().is_cancelled:
            return
        matches = model.search(text) if model is not None else []
        if not get_current_worker().is_cancelled:
            self.post_message(TreeSearched(text, matches))

    def on_tree_searched(self, message: TreeSearched) -> None:
        tree = self.query_one(EntryTree)
        if message.text != tree.typed:
            return  # a newer search is on its way
        if self._opening_search and message.text == self._opening_search:
            self._opening_search = ""
            if not message.matches:  # the search matched the session, not one entry
                self._clear_search()
                return
            tree.show_matches(message.text, message.matches)
            tree.move_to(0)  # opened from a search: its first match
            self._update_count()
            return
        found = tree.show_matches(message.text, message.matches)
        self.query_one("#tree-search").set_class(bool(message.text) and not found, "-no-match")
        self._update_count()

    def _update_count(self) -> None:
        """Pi's position counter while searching: (highlighted/shown)."""
        tree = self.query_one(EntryTree)
        shown = len(tree.rows)
        text = f"({tree.cursor + 1 if shown else 0}/{shown})" if tree.query else ""
        self.query_one("#tree-search-count", Static).update(text)
