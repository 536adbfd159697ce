"""The start screen: search, list and preview sessions; open, resume, fork, rename, trash."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from pitui.core.catalog.scan.scan_pass import ScanReport
from pitui.core.catalog.scope import WITH_REMOTES, all_sessions_store
from pitui.core.catalog.search import SORTS
from pitui.core.catalog.search.search import SearchCancelled
from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.catalog.summary import SessionSummary
from pitui.core.live import hub
from pitui.core.remotes.sync import stop_syncs
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import ListsSessions, PituiAppBase
from pitui.ui.branch_actions import ask_tags, toggle_pin
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.folder_move import ask_move_folder
from pitui.ui.keymap import key_list
from pitui.ui.marks import search_with_marks
from pitui.ui.screens import picker_actions
from pitui.ui.screens.picker_keys import PICKER_BINDINGS
from pitui.ui.screens.picker_remotes import shows_remote, start_sync, sync_notices
from pitui.ui.screens.picker_scope import how_to_see_more, looked_in, status_scope
from pitui.ui.screens.picker_secrets import (
    DEBOUNCE,
    SecretsFound,
    SecretsProgress,
    SecretsScan,
    with_secret_marks,
)
from pitui.ui.screens.remaps import keep_remaps_reachable
from pitui.ui.widgets.fitting_footer import FittingFooter
from pitui.ui.widgets.search_box import SearchBox
from pitui.ui.widgets.session_preview import SessionPreview
from pitui.ui.widgets.session_table import SessionTable
from pitui.ui.worker_messages import (
    CatalogProgress,
    CatalogScanned,
    RemotesSynced,
    SearchDone,
    SearchIndexProgress,
    SearchRequest,
    SessionsChanged,
    SyncProgress,
)

# seconds of quiet typing before a search (a newer key cancels it): a pasted query's keys come
# in one read, well within it (0.02 s: the picker's median at 10,000 sessions 0.103-0.120 s;
# 0.01 s: 0.087-0.099 s, `bench_picker_search.py`, alternated runs)
SEARCH_DELAY = 0.01
SEARCHING_AFTER = 0.15  # seconds before the status line says a search is still running
# While indexing, the list is refreshed at most every RESEARCH_EVERY seconds, and at most every
# RESEARCH_PER_SESSION seconds per session indexed: each refresh searches them all (a first
# launch on 10,000 sessions: the whole list at 8.3-9.6 -> 7.8-8.0 s)
RESEARCH_EVERY = 0.5
RESEARCH_PER_SESSION = 0.0002
# ... and at most every RESEARCH_DUTY times the last search's time: a phrase, searched in the
# texts until the index has them, took seconds each time and searched again at once, and the
# listing of 10,000 sessions took 21 s instead of 8.7
RESEARCH_DUTY = 4.0
# ... and while tool output is indexed after the listing, an answer missing what only it
# holds is asked again at most this often (each search delays the index's writes)
TOOLS_RESEARCH_EVERY = 2.0
SCAN_AT_THE_LATEST = 2.0  # seconds after mounting, whether the first answer came or not
CHANGES_EVERY = 1.0  # while sessions change, search again at most this often (at 10,000
# sessions each search and its rows cost about 0.1 s of CPU: every 0.25 s took 18% of a core)


_ON_A_SESSION = frozenset(
    {"rename", "trash", "pin", "tags", "export", "open", "resume", "fork"}
)  # the actions on the highlighted session


class PickerScreen(ReportsFailures, ListsSessions, Screen[None]):
    """Catalog search in thread workers; the list updates as the catalog fills in.

    The question the list answers is the search box's text and the attributes below: changing
    one asks again (its watcher searches and updates the status line)."""

    BINDINGS: ClassVar[list[BindingType]] = PICKER_BINDINGS
    app = getters.app(PituiAppBase)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (Screen: an instance variable)

    all_scope = var(False, init=False)
    """Every folder's sessions (Tab), or the current folder's."""
    archive = var(False, init=False)
    """pitui's archive's sessions instead of Pi's session folder's (Alt+A)."""
    sort = var(SORTS[0], init=False)
    """The order of the list, one of `SORTS` (Ctrl+S cycles)."""
    named_only = var(False, init=False)
    """Only the sessions with a name (Ctrl+N)."""
    show_paths = var(False, init=False, toggle_class="-paths")
    """The file path column, the list taking the preview's width (Ctrl+P)."""
    secret_paths: var[frozenset[str]] = var(frozenset(), init=False)
    """The sessions found to hold credentials, marked in the list (`SecretsScan`)."""

    def __init__(self) -> None:
        super().__init__(id="picker")
        self.progress: tuple[int, int] | None = None  # (done, total) while the scan runs
        self.syncing: tuple[str, int] | None = None  # (remote, percent) while a sync runs
        self.search_indexing: tuple[int, int] | None = None  # (done, total) bytes, after the scan
        self.credential_pass: tuple[int, int] | None = None  # (done, total) sessions, when long
        self.known_count: int | None = 0  # sessions in the index, counted for an empty answer
        self.rows: list[CatalogRow] = []  # the catalog rows listed (the answer on screen)
        self.search_error: str | None = None  # why the query could not be read (a bad re:)
        self._tools_pending = False  # the answer shown was searched before all tool output was
        self._search_timer: Timer | None = None
        self._searching_timer: Timer | None = None
        self._changes_timer: Timer | None = None  # a search after sessions changed, coming
        self.searching = False  # a search has run longer than SEARCHING_AFTER: said so
        self._last_research = 0.0
        self._search_took = 0.0  # seconds the last search answered took
        self._unsubscribe: Callable[[], None] | None = None
        self._secrets: SecretsScan | None = None  # once there is a catalog
        self.scanned = False  # the first scan has finished: the list is complete
        self._scan_started = False
        self._shown: SearchRequest | None = None  # the question the list on screen answers
        self._asked = 0  # searches asked so far; the list on screen answers...
        self._answered_ask = 0  # ...this one of them (an answer to an older is not due)
        self._queued: Callable[[], None] | None = None  # an action pressed before the answer
        self._keys_released: Callable[[], None] | None = None  # ends the keys' wait for it
        # what the footer shows now: the keys on a session active, Alt+M offered
        self._footer_shows: tuple[bool, bool] = (True, False)
        self._removed: set[str] = set()  # sessions pitui trashed or moved away (`forget`)

    def compose(self) -> ComposeResult:
        yield SearchBox(
            placeholder='Search: words, "a phrase", re:regex', id="search", select_on_focus=False
        )
        yield Static(id="picker-status")
        with Horizontal(id="picker-body"):
            with Vertical(id="picker-list"):
                yield SessionTable(id="sessions")
                yield Static(id="picker-empty")
            yield SessionPreview(id="preview")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.call_after_refresh(self._keep_remaps_reachable)
        self.set_reactive(PickerScreen.all_scope, self.app.config.all_scope)  # asked below
        preview = self.query_one(SessionPreview)
        preview.home, preview.move_key = self.app.config.home, self._key_of("picker.move_folder")
        # At once, not after a refresh as `focus()` does: the app hands keys on only once this
        # screen is mounted, and every one of them is for the search box.
        self.set_focus(self.query_one("#search", Input), scroll_visible=False)
        self._update_status()
        if self.app.catalog is None:
            return
        self._secrets = SecretsScan(self, self.app.catalog, self._listed_paths, self.app.activity)
        self.run_search()  # what the index already knows; the scan follows its answer
        self.set_timer(SCAN_AT_THE_LATEST, self._first_scan)
        self._unsubscribe = self.app.hub.subscribe(self._hub_changed)
        every = self.app.config.settings.sync_every
        if self.app.catalog.mirrors and every > 0:
            self.set_interval(every, self._sync_if_shown)

    def _sync_if_shown(self) -> None:
        if shows_remote(self.rows):
            start_sync(self)

    def action_sync_remotes(self) -> None:
        if self.app.catalog is None or not self.app.catalog.mirrors:
            self.notify("No remotes to sync (pitui remote add NAME HOST)", markup=False)
            return
        self.notify("Syncing the remotes...", timeout=3)
        start_sync(self)

    def on_sync_progress(self, message: SyncProgress) -> None:
        self.syncing = (message.name, message.percent)
        self._update_status()

    def on_remotes_synced(self, message: RemotesSynced) -> None:
        self.syncing = None
        self._update_status()
        for notice in sync_notices(message.results):
            self.notify(notice, severity="warning", markup=False)
        self._scan()  # the mirrors' new and changed files, then the list again

    def _keep_remaps_reachable(self) -> None:
        """A user's key the picker cannot honour (a letter, which types into the search; a
        key of another action here) is kept off, and said."""
        bindings = [*PICKER_BINDINGS, *SessionTable.BINDINGS]
        keep_remaps_reachable(self, {b.id: b for b in bindings if isinstance(b, Binding) and b.id})

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        stop_syncs()  # the app quits: a sync under way would go on unseen

    # -- catalog -------------------------------------------------------------------------

    @thread_worker("scan", "indexing sessions", exclusive=True)
    def _scan(self) -> None:
        if (catalog := self.app.catalog) is None:
            return

        def files_indexed(done: int, total: int) -> None:
            self.post_message(CatalogProgress(done, total))

        def texts_indexed(done: int, total: int) -> None:
            self.post_message(SearchIndexProgress(done, total))

        report = catalog.scan(progress=files_indexed, tools_progress=texts_indexed)
        self.post_message(CatalogScanned(report))

    def on_catalog_progress(self, message: CatalogProgress) -> None:
        self.progress = (message.done, message.total)
        self._update_status()
        every = max(
            RESEARCH_EVERY, message.done * RESEARCH_PER_SESSION, RESEARCH_DUTY * self._search_took
        )
        if time.monotonic() - self._last_research > every:
            self.run_search()

    def on_search_index_progress(self, message: SearchIndexProgress) -> None:
        """The text and tool output being indexed after the listing: until then a search of
        them reads the texts (slower) or misses tool output, so the status line says so."""
        done = message.done >= message.total
        self.search_indexing = None if done else (message.done, message.total)
        self._update_status()
        if not self._tools_pending:
            return
        # what only the tool output matches was missing from the answer: it grows as the
        # index does (an answer of 615 stayed 34 s while the pass went from 8% to 93%)
        every = max(TOOLS_RESEARCH_EVERY, RESEARCH_DUTY * self._search_took)
        if done or time.monotonic() - self._last_research > every:
            self.run_search()

    def on_catalog_scanned(self, message: CatalogScanned) -> None:
        self.scanned = True
        self.progress = None
        for notice in scan_notices(message.report):
            self.notify(notice, severity="warning", markup=False)
        if message.report.changed or (self._shown is not None and not self.rows):
            self.run_search()  # (an empty list: its message changes once the scan is done)
        else:  # the index the list came from (or the answer on its way) was up to date
            self._update_status()
        self._look_for_secrets()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.group == "scan":
            self.scanned, self.progress = True, None  # show what is known, not "Indexing"
            self.run_search()
        if event.state == WorkerState.ERROR and event.worker.group == "search":
            self._answered_ask = self._asked  # no answer is coming
            self._queued = None  # no answer is coming: never act on a list not shown
            self._release_keys()

    def _hub_changed(self, event: hub.CatalogChanged) -> None:
        """Watcher thread: the hub has indexed a change; only post (never block the watcher)."""
        self.post_message(SessionsChanged(notice=event.notice))

    def on_sessions_changed(self, message: SessionsChanged) -> None:
        """Sessions changed: search again, at most every CHANGES_EVERY seconds while a writer
        streams lines (pi at work appends tens a second; a search and its rows for each line
        kept the app busy and grew its memory)."""
        if message.notice:
            self.notify(message.notice, severity="warning", markup=False)
        if message.ours:  # the user's own rename or trash shows at once
            if self._changes_timer is not None:
                self._changes_timer.stop()
                self._changes_timer = None
            self.run_search()
        elif self._changes_timer is None:
            wait = max(0.01, CHANGES_EVERY - (time.monotonic() - self._last_research))
            self._changes_timer = self.set_timer(wait, self._search_after_changes)
        if self.scanned:
            self._look_for_secrets(delay=DEBOUNCE)

    @thread_worker("catalog-update", "updating the session list")
    def _update_catalog(self, changed: list[Path], deleted: list[Path]) -> None:
        """Our own writes and trashes, indexed now (the watcher may be off)."""
        for path in deleted:
            self.app.hub.forget(path)
        if changed:
            self.app.hub.refresh(changed)
        self.post_message(SessionsChanged(ours=True))

    # -- secrets -------------------------------------------------------------------------

    def _look_for_secrets(self, *, delay: float = 0.0) -> None:
        if self._secrets is not None:
            self._secrets.look(delay=delay)

    def _listed_paths(self) -> list[str]:
        return [row.summary.path for row in self.rows]

    def on_secrets_found(self, message: SecretsFound) -> None:
        self.secret_paths = message.paths

    def on_secrets_progress(self, message: SecretsProgress) -> None:
        done = message.done >= message.total
        self.credential_pass = None if done else (message.done, message.total)
        self._update_status()

    def watch_secret_paths(self) -> None:
        self.run_search()  # its answer marks them

    # -- search --------------------------------------------------------------------------

    def _ask_again(self) -> None:
        """The question changed (its scope, store, sort or filter): search, and say so."""
        self.run_search()
        self._update_status()

    watch_all_scope = watch_archive = watch_sort = watch_named_only = _ask_again

    def watch_show_paths(self, show_paths: bool) -> None:
        self._show_rows()

    def _show_rows(self, *, top: bool = False, again: bool = False) -> None:
        self.query_one(SessionTable).show_rows(
            self.rows,
            now=self.app.now(),
            all_scope=self.all_scope,
            show_paths=self.show_paths,
            home=self.app.config.home,
            top=top,
            removed=self._removed,
            again=again,
        )
        self._refresh_footer()  # the keys on a session come and go with the rows

    @on(Input.Changed, "#search")
    def _search_typed(self, event: Input.Changed) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
        self._search_timer = self.set_timer(SEARCH_DELAY, self.run_search)
        self._expect_answer()

    def current_request(self) -> SearchRequest:
        query = self.query_one("#search", Input).value
        return SearchRequest(query, self.all_scope, self.sort, self.named_only, self.archive)

    @property
    def search_pending(self) -> bool:
        """The list on screen does not answer the query, scope, sort and filter set now."""
        return self.app.catalog is not None and self._shown != self.current_request()

    @property
    def _answer_due(self) -> bool:
        """A search was asked that has not answered yet (the list shows an older one's)."""
        return self._answered_ask < self._asked

    @property
    def _nothing_to_act_on(self) -> bool:
        """No session is listed, and none is coming: no answer is due (`defer`)."""
        return not self.rows and not self.search_pending and self.scanned and not self._answer_due

    def defer(self, action: Callable[[], None]) -> bool:
        """Queue `action` until the pending search has answered, or while the index being
        built has nothing for it yet (True: queued, do not act now), so a key pressed right
        after typing acts on the first row of the answer to what was typed."""
        if not self.search_pending and (self.rows or (self.scanned and not self._answer_due)):
            return False  # (an empty list with an answer due: the one the scan's end asked for)
        self._queued = action
        if self._keys_released is None:  # the keys after it wait for it (`KeyGate`)
            self._keys_released = self.app.key_gate.hold()
        return True

    def _release_keys(self) -> None:
        release, self._keys_released = self._keys_released, None
        if release is not None:
            release()

    def run_search(self) -> None:
        if self.app.catalog is None:
            return
        self._last_research = time.monotonic()
        self._asked += 1
        self._expect_answer()
        self._search(self.current_request(), self._asked)

    def _expect_answer(self) -> None:
        if self._searching_timer is None:
            self._searching_timer = self.set_timer(SEARCHING_AFTER, self._say_searching)

    def _say_searching(self) -> None:
        """The answer is late: the rows on screen are the last question's, and the status
        line says so instead of counting them."""
        self._searching_timer = None
        if self.search_pending:
            self.searching = True
            self._update_status()

    def _search_after_changes(self) -> None:
        self._changes_timer = None
        self.run_search()

    @thread_worker("search", "searching sessions", exclusive=True)
    def _search(self, request: SearchRequest, asked: int) -> None:
        cwd = None if request.all_scope else self.app.config.cwd
        catalog = self.app.catalog  # answers from what is indexed so far, from any thread
        if catalog is None:
            return
        worker = get_current_worker()
        started = time.monotonic()
        try:
            search = partial(
                catalog.search,
                cwd=cwd,
                sort=request.sort,
                named_only=request.named_only,
                store=self._store(request),
                cancelled=lambda: worker.is_cancelled,
                here=self.app.config.cwd,  # a relative file:PATH
            )
            result = search_with_marks(request.query, search)  # pin: / tag:NAME, pinned first
        except SearchCancelled:
            return  # a newer question replaced it
        result.rows = with_secret_marks(result.rows, self.secret_paths)
        known = len(catalog.sessions(cwd=None)) if not result.rows else None
        if not worker.is_cancelled:
            took = time.monotonic() - started
            self.post_message(SearchDone(request, result, known, asked, took))

    def _store(self, request: SearchRequest) -> str:
        """The store a request lists: the archive, or this machine's sessions; "all" adds
        every remote's mirror (marked by the remote's name) unless started with
        --no-remotes (a query's `in:local` leaves them out too)."""
        if request.archive:
            return "archive"
        return self._all_store if request.all_scope else "local"

    @property
    def _all_store(self) -> str:
        catalog = self.app.catalog
        remotes_added = catalog is not None and bool(catalog.mirrors)
        return all_sessions_store(remotes_added, self.app.config.remotes_in_all)

    @property
    def _remotes_in_all(self) -> bool:
        return self._all_store == WITH_REMOTES

    def _first_scan(self) -> None:
        """The scan of every file, once the list the index knows is on screen: Python runs one
        thread at a time, and the scan running beside the first search delayed the list
        (`SCAN_AT_THE_LATEST` starts it if that answer never comes)."""
        if not self._scan_started:
            self._scan_started = True
            self._scan()

    def on_search_done(self, message: SearchDone) -> None:
        if not self._scan_started:
            self.call_after_refresh(self._first_scan)
        request: SearchRequest = message.request
        if request != self.current_request():
            return  # an answer to an older question
        result = message.result
        self._search_took = message.took
        self._answered_ask = max(self._answered_ask, message.asked)
        self._answered()
        self.search_error = result.error
        self._tools_pending = result.tools_pending
        new_question, self._shown = request != self._shown, request
        if result.error and not result.rows:
            self._update_status()
            self._run_queued()
            return  # keep the last list while the query is being typed
        self.rows = list(result.rows)
        self.known_count = message.known
        # as Pi, a new question highlights its first answer; once every file is listed, the
        # same question answered again (a session changed) keeps the session being read
        self._show_rows(top=new_question, again=self.scanned and not new_question)
        table = self.query_one(SessionTable)
        self._update_empty(request)
        self._update_status()
        preview = self.query_one(SessionPreview)
        preview.search_text = request.query
        preview.show(table.highlighted, table.highlighted_row)
        self.call_after_refresh(self.app.preload_session_screen)  # once the list is drawn
        self._run_queued()

    def _answered(self) -> None:
        if self._searching_timer is not None:
            self._searching_timer.stop()
            self._searching_timer = None
        self.searching = False

    def _run_queued(self) -> None:
        """The action pressed before this answer, on its first row; while the index is still
        being built and has nothing for the question yet, it waits for more of the index."""
        if not self.rows and not self.scanned:
            return
        action, self._queued = self._queued, None
        try:
            if action is not None:
                action()
        finally:
            self._release_keys()

    def _update_empty(self, request: SearchRequest) -> None:
        empty = self.query_one("#picker-empty", Static)
        message = ""
        if not self.rows:
            message = self._empty_message(request)
        empty.update(Text(message))
        self.query_one("#picker-list").set_class(bool(message), "-empty")

    def _empty_message(self, request: SearchRequest) -> str:
        """What an empty list means, in Pi's words where Pi has them."""
        here = not request.all_scope
        if request.query:
            return "No sessions match - Esc clears the search" + (", Tab views all" if here else "")
        if not self.scanned:
            return "Indexing sessions..."
        if request.archive and not request.named_only:  # no query, no row: none archived
            if here:
                return "No archived sessions in current folder. Press Tab to view all."
            return "No archived sessions: `pitui archive` moves old ones here"
        if request.named_only:
            named = f"Press {self._key_of('picker.named')} to show all"
            if here:
                return f"No named sessions in current folder. {named}, or Tab to view all."
            return f"No named sessions found. {named}."
        if self.known_count == 0:
            return f"No sessions found at {self.app.config.sessions_root}"
        if here:
            config, catalog = self.app.config, self.app.catalog
            assert catalog is not None  # a list answered: there is a catalog
            where = looked_in(catalog.root, catalog.custom_dir, config.cwd, config.home)
            return (
                "No sessions in current folder. Press Tab to view all.\n\n"
                f"{where}\n\n{how_to_see_more()}"
            )
        return "No sessions found"

    def _key_of(self, binding_id: str) -> str:
        """The key bound to `binding_id` now (a keymap may have changed it), as displayed; of
        a key not active now (Alt+M while no folder is gone), as the keymap gives it."""
        for active in self.active_bindings.values():
            if active.binding.id == binding_id:
                return self.app.get_key_display(active.binding)
        for binding in PICKER_BINDINGS:
            if isinstance(binding, Binding) and binding.id == binding_id:
                keys = self.app.config.keymap.get(binding_id, binding.key)
                first = next(iter(key_list(keys)), binding.key)
                return self.app.get_key_display(replace(binding, key=first))
        return binding_id

    def _update_status(self) -> None:
        """The status line; a query in error puts its warning on a line of its own above it,
        readable at 80 columns."""
        lines = [self._status_line()]
        if self.search_error:
            lines.insert(0, f"⚠ {one_line(self.search_error)}")
        status = self.query_one("#picker-status", Static)
        status.update(Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))
        status.styles.height = len(lines) if self.search_error else None  # None: the CSS's 1
        status.set_class(bool(self.search_error), "-error")
        # rows dimmed: they are not the answer to the query (still searching, or in error)
        stale = self.searching or bool(self.search_error)
        self.query_one("#picker-list").set_class(stale, "-searching")
        # the list shows the measure its rows are sorted by (the answer's sort, not one asked)
        self.query_one(SessionTable).show_sort((self._shown or self.current_request()).sort)

    def _status_line(self) -> str:
        config = self.app.config
        scope = "all sessions" if self.all_scope else status_scope(config.cwd, config.home)
        if self.all_scope and not self.archive and self._remotes_in_all:
            scope += " + remotes"
        parts = [scope, f"sort: {self.sort}"]
        if self.archive:
            parts.insert(0, "archive")
        if self.named_only:
            parts.append("named only")
        if self.search_error and not self.searching:  # first: the rows are an older answer
            parts.insert(0, f"not applied: {len(self.rows)} rows of the last search")
        else:
            parts.append("searching..." if self.searching else self._shown_count())
        parts += self._progress_parts()
        if self.app.catalog is not None and self.app.catalog.archive_dir is not None:
            parts.append(
                f"{self._key_of('picker.archive')}: {'back' if self.archive else 'archive'}"
            )
        return " · ".join(parts)

    def _shown_count(self) -> str:
        """ "N shown", "so far" after it while the answer may grow: a search answered while
        sessions are still listed, or before their tool output is in the search index (a
        word found only there: 1,880 shown of 3,381, with nothing saying so)."""
        searched = self._shown is not None and bool(self._shown.query.strip())
        growing = searched and (self.progress is not None or self._tools_pending)
        return f"{len(self.rows):,} shown" + (" so far" if growing else "")

    def _progress_parts(self) -> list[str]:
        """What is still running: the scan, the search index, a sync."""
        parts: list[str] = []
        if self.progress is not None:
            parts.append(f"indexing {self.progress[0]}/{self.progress[1]}")
        if self.search_indexing is not None:
            done, total = self.search_indexing
            parts.append(f"indexing for search {100 * done // max(total, 1)}%")
        if self.syncing is not None:
            parts.append(f"syncing {one_line(self.syncing[0])} {self.syncing[1]}%")
        if self.credential_pass is not None:  # the ⚠ marks: every session read once
            done, total = self.credential_pass
            parts.append(f"looking for credentials {100 * done // max(total, 1)}%")
        return parts

    # -- keys ----------------------------------------------------------------------------

    def action_toggle_scope(self) -> None:
        self.all_scope = not self.all_scope

    def action_toggle_archive(self) -> None:
        """The archive as a scope of its own (Tab still chooses this folder / all)."""
        self.archive = not self.archive

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]

    def action_toggle_named(self) -> None:
        self.named_only = not self.named_only

    def action_toggle_paths(self) -> None:
        self.show_paths = not self.show_paths

    def action_move_list(self, move: str, step: int) -> None:
        """Move the list's selection by rows (`cursor`) or pages (`page`), or to a row
        (`jump`: 0 the first, -1 the last); typed before a search's answer, in that answer
        (as Pi, whose search answers at once: "query", Down, Enter opens the second row)."""
        if self.defer(partial(self.action_move_list, move, step)):
            return
        table = self.query_one(SessionTable)
        if move == "page":
            table.action_page(step)
        elif move == "jump":
            table.action_jump(step)
        else:
            table.action_cursor(step)

    def action_escape(self) -> None:
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
        else:
            self.app.exit()

    def action_open(self) -> None:
        if not self.defer(self.action_open) and (summary := self.highlighted) is not None:
            picker_actions.open_session(self.app, summary, self.query_one("#search", Input).value)

    def action_resume(self) -> None:
        if not self.defer(self.action_resume) and (summary := self.highlighted) is not None:
            picker_actions.resume(self.app, summary)

    def action_fork(self) -> None:
        if not self.defer(self.action_fork) and (summary := self.highlighted) is not None:
            picker_actions.fork(self.app, summary)

    def action_rename(self) -> None:
        if not self.defer(self.action_rename) and (summary := self.highlighted) is not None:
            picker_actions.rename(
                self.app, summary, lambda path, note: self.refresh_paths([path], note)
            )

    def action_trash(self) -> None:
        if not self.defer(self.action_trash) and (summary := self.highlighted) is not None:
            picker_actions.trash(self.app, summary)

    def action_export(self) -> None:
        if not self.defer(self.action_export) and (summary := self.highlighted) is not None:
            picker_actions.export(self, summary)

    def action_stats(self) -> None:
        """Usage of the sessions listed now (the current search, scope and named filter)."""
        if self.app.catalog is not None:
            summaries = [row.summary for row in self.rows]
            query = self.query_one("#search", Input).value
            scope = "the archive" if self.archive else None
            picker_actions.show_stats(self.app, summaries, self.all_scope, query, scope)

    def action_move_folder(self) -> None:
        """The highlighted session's folder is gone: move its sessions where it is now."""
        summary = self.highlighted
        if summary is not None and self.query_one(SessionPreview).folder_missing:
            ask_move_folder(self.app, summary.cwd, self._folder_moved)

    def _folder_moved(self, new: list[Path], old: list[Path], note: str) -> None:
        self.notify(note, title="Sessions moved", markup=False)
        for path in old:
            self.forget(path)
        self.refresh_paths(new)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Alt+M (Folder) only for a session whose folder is gone (in the footer then); the
        keys that act on the highlighted session dimmed while none is listed."""
        if action == "move_folder":
            listed = bool(self.rows)
            return listed and any(p.folder_missing for p in self.query(SessionPreview))
        if action in _ON_A_SESSION and self._nothing_to_act_on:
            return None
        return True

    @on(SessionPreview.Loaded)
    def _preview_loaded(self) -> None:
        """Alt+M comes and goes with the session highlighted."""
        self._refresh_footer()

    def _refresh_footer(self) -> None:
        """The footer's keys again when what it shows changed (not on every answer, nor on
        every load of a preview being written)."""
        shows = (not self._nothing_to_act_on, bool(self.check_action("move_folder", ())))
        if shows != self._footer_shows:
            self._footer_shows = shows
            self.refresh_bindings()

    def action_trash_view(self) -> None:
        picker_actions.show_trash(self.app)

    def action_pin(self) -> None:
        if not self.defer(self.action_pin) and (row := self._highlighted_row) is not None:
            toggle_pin(self.app, row, self._marks_changed)

    def action_tags(self) -> None:
        if not self.defer(self.action_tags) and (row := self._highlighted_row) is not None:
            ask_tags(self.app, row, self._marks_changed)

    @property
    def _highlighted_row(self) -> CatalogRow | None:
        return self.query_one(SessionTable).highlighted_row

    def _marks_changed(self, note: str) -> None:
        self.notify(note, markup=False)  # holds the tags as typed
        self.run_search()

    def refresh_paths(self, paths: list[Path], note: str | None = None) -> None:
        """Re-read these sessions into the catalog (after our own writes) and search again."""
        if note:
            self.notify(note)
        self._removed.difference_update(str(path) for path in paths)  # back from the trash
        if self.app.catalog is not None:
            self._update_catalog(paths, [])

    def forget(self, path: Path) -> None:
        self._removed.add(str(path))
        if self.app.catalog is not None:
            self._update_catalog([], [path])

    # -- list ----------------------------------------------------------------------------

    @on(SessionTable.Highlighted, "#sessions")
    def _highlighted(self, event: SessionTable.Highlighted) -> None:
        table = self.query_one(SessionTable)
        self.query_one(SessionPreview).show(event.summary, table.highlighted_row)

    @on(SessionTable.Selected, "#sessions")
    def _selected(self, event: SessionTable.Selected) -> None:
        event.stop()
        self.action_open()

    @property
    def highlighted(self) -> SessionSummary | None:
        return self.query_one(SessionTable).highlighted


def scan_notices(report: ScanReport) -> list[str]:
    """What a scan could not list fully, a line each (names escaped: they come from disk)."""
    shown = 3  # names per kind; the rest counted
    notices = []
    for what, items in (
        ("cannot read", report.unreadable),
        ("not a regular file, skipped", report.skipped),
        ("listed with what could be read", report.problems),
    ):
        if items:
            more = f" (+{len(items) - shown} more)" if len(items) > shown else ""
            notices.append(f"{what}: {one_line(', '.join(items[:shown]))}{more}")
    if report.notice:
        notices.append(one_line(report.notice))
    return notices
