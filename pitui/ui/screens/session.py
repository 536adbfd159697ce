"""One session: entry tree | message pane | context preview, following the file live."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, getters, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from pitui.core.format.entry_types import EntryType
from pitui.core.live import hub
from pitui.core.live.live import (
    EntriesAppended,
    LiveSession,
    SessionEvent,
    SessionGone,
    SessionReloaded,
)
from pitui.core.live.open_by import writers_of
from pitui.core.rows.rows import TreeRows
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.session.entry import Entry
from pitui.core.session.reader import NotASession
from pitui.ui.app_base import PituiAppBase, ShowsSession
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.keymap import key_list
from pitui.ui.screens.files_view import FilesViewScreen
from pitui.ui.screens.remaps import keep_remaps_reachable
from pitui.ui.screens.session_commands import SessionCommands
from pitui.ui.screens.session_header import SessionHeader
from pitui.ui.screens.session_keys import SESSION_BINDINGS
from pitui.ui.screens.session_panes import PaneLayout
from pitui.ui.screens.session_search import TreeSearchBar
from pitui.ui.screens.session_tail import TailPeeked, TailPreview, peek
from pitui.ui.screens.sizes import SizeViewScreen
from pitui.ui.widgets.context_pane import ContextPane, prepare_context
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.entry_tree_keys import ENTRY_TREE_BINDINGS
from pitui.ui.widgets.fitting_footer import FittingFooter
from pitui.ui.widgets.message_pane import MessagePane
from pitui.ui.widgets.search_box import run_binding_now, types_text
from pitui.ui.worker_messages import (
    ContextBuilt,
    HoldersFound,
    LiveAppended,
    LiveGone,
    LiveReloaded,
    SessionLoaded,
    SessionProgress,
    SessionsChanged,
)

# The tree's keys that act on it from another pane too
TREE_KEYS_FROM_A_PANE = frozenset({"entry_tree.leaf", "session.label_times"})


def tree_action_from_a_pane(key: str, keymap: Mapping[str, str]) -> str | None:
    """The tree's action for `key` when another pane has the focus (Alt+L: the active leaf;
    Shift+T: label times), its keys as the user's Pi remaps (`keymap`) have them."""
    for binding in ENTRY_TREE_BINDINGS:
        if not isinstance(binding, Binding) or binding.id not in TREE_KEYS_FROM_A_PANE:
            continue
        keys = keymap.get(binding.id, binding.key)
        if key in key_list(keys):
            return binding.action
    return None


CONTEXT_DELAY = 0.08  # seconds the highlight rests before the context is built
RETRY_EVERY = 1.0  # a file that is not a session yet (e.g. empty): look again this often
HOLDERS_EVERY = 3.0  # who has the file open, looked for again this often


class SessionScreen(ReportsFailures, ShowsSession, Screen[None]):
    """Loads in a thread worker; live events arrive from the watcher thread as messages.

    It holds its parts: the title (`SessionHeader`), the tree's search bar (`TreeSearchBar`),
    the preview of a large file's end while it loads (`TailPreview`), the panes' layout
    (`PaneLayout`) and what its keys do to the session (`SessionCommands`)."""

    BINDINGS: ClassVar[list[BindingType]] = SESSION_BINDINGS
    ESCAPE_TO_MINIMIZE = False  # Esc clears the search first (`action_back`), as Pi's /tree
    app = getters.app(PituiAppBase)

    def __init__(self, path: Path, *, standalone: bool = False, search: str = "") -> None:
        """`search`: the tree's search once loaded, the cursor on its first match (a session
        opened from a search)."""
        super().__init__(classes="session-screen")
        self.path = Path(path).absolute()
        self.standalone = standalone
        self._opening_search = search
        self.live: LiveSession | None = None
        self.entry: Entry | None = None
        self.gone: str | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._unsubscribe_store: Callable[[], None] | None = None
        self._context_timer: Timer | None = None
        self._waiting_size: int | None = None  # not a session yet: its size when last read
        self._retry_timer: Timer | None = None
        self.panes = PaneLayout(self)
        self.commands = SessionCommands(self)

    # -- layout and loading --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SessionHeader(Text(inert_path(str(self.path)), style="bold"), id="session-title")
        yield Static(id="session-notice")
        with Horizontal(id="panes"):
            yield (tree := EntryTree(id="entry-tree"))
            yield MessagePane(id="message-pane")
            yield ContextPane(id="context-pane")
            # over the panes, which stay: the tree keeps the focus and its keys
            yield TailPreview(id="session-tail")
        yield TreeSearchBar(tree, opening=self._opening_search, id="tree-search-bar")
        yield FittingFooter(drop_first=["files"])

    def on_mount(self) -> None:
        if not self.query(EntryTree):  # the app quit while this screen was being built
            return
        self.panes.apply()
        self.query_one("#panes").loading = True
        self.set_focus(self.query_one(EntryTree), scroll_visible=False)
        self.call_after_refresh(self._keep_remaps_reachable)
        self.query_one("#session-notice", Static).update("reading the session")
        self.add_class("-reading")
        # the first frame before the worker: its reading holds the GIL most of the time
        self.call_after_refresh(self._load, self.query_one(EntryTree).filter)
        if self.standalone:  # no picker to show the watcher's notices
            self._unsubscribe_store = self.app.hub.subscribe(self._hub_changed)

    def _keep_remaps_reachable(self) -> None:
        """A user's key one of pitui's own keys here answers first (Alt+L, the active leaf)
        would leave the action with no key at all: its Pi key is kept, and said."""
        bindings = [*SESSION_BINDINGS, *ENTRY_TREE_BINDINGS]
        keep_remaps_reachable(self, {b.id: b for b in bindings if isinstance(b, Binding) and b.id})

    def _hub_changed(self, event: hub.CatalogChanged) -> None:
        """Watcher thread (or this one, for a standing notice): only post."""
        if event.notice:
            self.post_message(SessionsChanged(notice=event.notice))

    def on_sessions_changed(self, message: SessionsChanged) -> None:
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

    @thread_worker("grown", "waiting", exclusive=True)
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

    @thread_worker("load", "reading the session", exclusive=True)
    def _load(self, filter: str) -> None:
        """Read the file and build the tree's rows (which read what they show of tool calls)."""
        if self.live is None and (tail := peek(self.path)):
            self.post_message(TailPeeked(tail))  # on screen before the whole file is read
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
        self.remove_class("-peeking")
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
        if first:
            self._look_for_holders()
            self.set_interval(HOLDERS_EVERY, self._look_for_holders)
        if self.live.gone:
            self._show_gone(self.live.gone)
        entry_tree = self.query_one(EntryTree)
        if first and entry_tree.display:
            self.set_focus(entry_tree, scroll_visible=False)
        self.query_one(TreeSearchBar).loaded(first)

    async def on_key(self, event: events.Key) -> None:
        """From a pane (the tree handles its own): a bound key runs now, in the order typed;
        a key that types goes on the tree's search, as in Pi."""
        tree = self.query_one(EntryTree)
        if self.focused is tree or await run_binding_now(self, event):
            return
        if (action := tree_action_from_a_pane(event.key, self.app.config.keymap)) is not None:
            event.stop()
            await tree.run_action(action)
        elif types_text(event):
            event.stop()
            tree.type_search(tree.typed + (event.character or ""))

    @thread_worker("holders", "/proc", exclusive=True)
    def _look_for_holders(self) -> None:
        """Who else has the file open for writing, for the header ("open in pi (pid N)")."""
        self.post_message(HoldersFound(self.path, writers_of(self.path)))

    def on_holders_found(self, message: HoldersFound) -> None:
        header = self.query_one(SessionHeader)
        if [h.pid for h in header.holders] != [h.pid for h in message.holders]:
            header.holders = message.holders
            self._update_title()

    def _update_title(self) -> None:
        if self.live is None:
            return
        tree = self.query_one(EntryTree)
        header = self.query_one(SessionHeader)
        home = self.app.config.home
        header.show_session(self.live.session, self.path, home, tree.filter, tree.label_times)

    def on_resize(self, event: events.Resize) -> None:
        if not self.query(EntryTree):  # the app quit while this screen was being built
            return
        self._update_title()
        self.panes.fit_width(event.size.width)

    def on_tail_peeked(self, message: TailPeeked) -> None:
        """The end of a large session's active branch, until the whole tree is in."""
        if self.live is not None:
            return  # the whole tree came first
        self.query_one(TailPreview).show(message.rows)
        self.add_class("-peeking")
        self.query_one("#panes").loading = False  # the preview covers them instead

    # -- live ----------------------------------------------------------------------------

    def _live_event(self, event: SessionEvent) -> None:
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
        self.query_one(TreeSearchBar).update_count()  # a new row may match the search
        if self.entry is not None and _labels(message.entries, self.entry.id):
            tree = self.live.session.tree  # the message header shows the label
            self.query_one(MessagePane).show_entry(self.entry, tree)

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
        self.query_one(TreeSearchBar).update_count()
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

    @thread_worker("context", "building the context", exclusive=True)
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
        if event.text and self.maximized is not None:
            self.minimize()  # a zoomed pane hides the tree and the search line typed into
        self.query_one(TreeSearchBar).typed(event.text)

    def _clear_search(self) -> None:
        self.query_one(TreeSearchBar).clear()

    # -- actions -------------------------------------------------------------------------

    def action_back(self) -> None:
        """Esc: clear the search first (as Pi's /tree), then restore a pane, then leave."""
        tree = self.query_one(EntryTree)
        if tree.typed or tree.search_text:
            self._clear_search()
        elif self.maximized is not None:
            self.minimize()
        elif self.standalone:
            self.app.exit()
        else:
            self.app.pop_screen()

    def action_leave(self) -> None:
        """Esc in `pitui FILE`: as in the picker's session screen, but it quits."""
        self.action_back()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc says "Back" (to the picker) or, in `pitui FILE`, "Quit": one of its two
        bindings is active, in the footer, the help and the palette. No trash while a tree
        search is typed."""
        if action == "back":
            return not self.standalone
        if action == "leave":
            return self.standalone
        if action == "trash":  # Delete is an editing key while a search is typed (Pi's /tree
            trees = self.query(EntryTree)  # ignores it): it trashes nothing (none before compose)
            return not (trees and trees.first().typed)
        return True

    def action_toggle_pane(self, name: str) -> None:
        self.panes.toggle(name)

    def action_resize_tree(self, step: int) -> None:
        self.panes.resize_tree(step)

    def action_maximise(self) -> None:
        self.panes.maximise()

    def action_resume(self) -> None:
        self.commands.resume()

    def action_copy(self) -> None:
        self.commands.copy()

    def action_copy_markdown(self) -> None:
        self.commands.copy_markdown()

    def action_label(self) -> None:
        self.commands.label()

    def action_rename(self) -> None:
        self.commands.rename()

    def action_export(self) -> None:
        self.commands.export()

    def action_trash(self) -> None:
        self.commands.trash()

    def action_fork_entry(self) -> None:
        self.commands.fork_entry()

    def action_context_edit(self) -> None:
        self.commands.context_edit()

    def open_session(self, path: Path) -> None:
        """Another session over this one (a fork written here, opened)."""
        self.app.push_screen(SessionScreen(path))

    # -- sizes: what makes the session large --------------------------------------------

    def action_sizes(self) -> None:
        self.app.push_screen(SizeViewScreen(self.path), self._jump_to_entry)

    def action_files(self) -> None:
        self.app.push_screen(FilesViewScreen(self.path), self._jump_to_entry)

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
        if tree.typed or tree.search_text:  # a search shows only its matches: show every row
            self._clear_search()
        if model.row_of(entry_id) is None and tree.filter != "all":
            tree.set_filter("all")  # the filter hid it; the user asked to see it
        tree.move_to_entry(entry_id)
        if model.index_of(entry_id) is None:
            self.notify("The entry is in a folded branch: on its nearest shown ancestor")
        if tree.display:
            tree.focus()


def _labels(entries: list[Entry], target_id: str) -> bool:
    """Whether `entries` set or clear a label of the entry `target_id`."""
    return any(e.type == EntryType.LABEL and e.raw.get("targetId") == target_id for e in entries)
