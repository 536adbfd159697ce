"""The session catalog: every session's summary, indexed, searchable (no Textual here).

`Catalog(root).scan()` brings the index up to date with the files (reading only what changed),
`sessions(cwd)` lists like Pi's `list(cwd)` / `listAll()`, `search(query)` works as Pi's picker.

Tool output (most of the bytes, searched only by pitui's last tier) is indexed in a second pass
(`index_tools`), in the background when the caller is interactive: `search` then says
`tools_pending` until it is done. A command's search indexes just the tool output of the
sessions no other tier matched (`search(index_tools=True)`), so a first search waits for
neither index. The same pass first builds the trigram index of conversation text
(`text_index`), which answers the searches of words and phrases; until a file is in it, its
stored text is read instead. No conversation text is kept in memory.

A cold scan of many new files also parses in worker processes (`workers.py`: a script that
uses the catalog must keep its top level behind `if __name__ == "__main__":`).

A `Catalog` answers queries; it holds the parts that do the work, each owning its state:
`scope` (which files), `index` (the SQLite index), `known` (the summaries in memory), the
scan pass (`scan/scan_pass.py`: files to index) and `tools` (`scan/tool_pass.py`: tool output
and trigrams, after).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from pitui.core.catalog.index.index import Index, default_cache_dir
from pitui.core.catalog.known import KnownSessions
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.catalog.scan.scan_pass import ScanPass, ScanReport, ToolsMode
from pitui.core.catalog.scan.tool_pass import Progress, ToolPass
from pitui.core.catalog.scan.workers import Workers
from pitui.core.catalog.scope import Scope
from pitui.core.catalog.search.file_filter import file_targets
from pitui.core.catalog.search.query import Store, split_store
from pitui.core.catalog.search.search import (
    CatalogRow,
    Lookups,
    SearchCancelled,
    SearchResult,
    run_search,
)
from pitui.core.catalog.summary import SessionSummary

__all__ = [
    "Catalog",
    "CatalogRow",
    "ScanReport",
    "SearchCancelled",
    "SearchResult",
    "SessionSummary",
]
OnBatch = Callable[[list[SessionSummary]], None]
# conversation text a command's search reads rather than indexes first: about 0.1 s of
# reading a search, where indexing it costs ten times that once (1,000 sessions hold ~17 MB)
TEXT_SCAN_MAX = 32 * 1024 * 1024


class Catalog:
    """All sessions under a sessions root (or one custom session dir), kept in an index.

    Every method may be called from any thread: `sessions`/`search` answer at once from what
    is indexed so far, even while a scan runs; one indexing pass (scan, update, forget) runs
    at a time. The SQLite connection is shared by all threads under the index's own lock.
    """

    def __init__(
        self,
        sessions_root: Path,
        *,
        custom_dir: Path | None = None,
        cache_dir: Path | None = None,
        no_cache: bool = False,
        archive_dir: Path | None = None,
        mirrors: Iterable[Mirror] = (),
        earlier_paths: Callable[[tuple[str, ...]], tuple[str, ...]] = lambda paths: paths,
    ) -> None:
        """`earlier_paths`: a path `file:PATH` asks about, and where it was before the
        folder moves recorded (see `core/userdata/moves.py`; the index keeps paths as
        written)."""
        self.scope = Scope(sessions_root, custom_dir, archive_dir, mirrors)
        self.earlier_paths = earlier_paths
        self.index = Index(None if no_cache else (cache_dir or default_cache_dir()))
        self.known = KnownSessions(self.scope, self.index)
        self._workers = Workers()
        self.tools = ToolPass(self.index, self._workers)
        self._scan = ScanPass(self.scope, self.index, self.known, self._workers, self.tools)
        self._closing = threading.Event()  # a search under way stops at its next text

    @property
    def root(self) -> Path:
        return self.scope.root

    @property
    def custom_dir(self) -> Path | None:
        return self.scope.custom_dir

    @property
    def archive_dir(self) -> Path | None:
        return self.scope.archive_dir

    @property
    def mirrors(self) -> dict[str, Mirror]:
        """The remote mirrors listed, by their folder's path."""
        return self.scope.mirrors

    # -- indexing ----------------------------------------------------------------------------

    def scan(
        self,
        progress: Progress | None = None,
        on_batch: OnBatch | None = None,
        *,
        tools: ToolsMode = "auto",
        tools_progress: Progress | None = None,
        stats: Mapping[str, os.stat_result] | None = None,
    ) -> ScanReport:
        """Bring the index up to date with every file in scope.

        `progress(done, total)` counts files; `on_batch(sessions)` gets, every ~100 files, the
        sessions listed so far (newest first, as `sessions()`). Tool output is then indexed
        per `tools`: "now" (before returning), "background" (a thread; `tools_progress(done,
        total)` counts bytes, called from that thread), "later" (call `index_tools`); "auto"
        is "background" when `progress` or `on_batch` is given (an interactive caller), else
        "now". `stats`: the files' stats, by path, as the caller took them a moment ago (the
        scan takes only the others').
        """
        batch_done = None if on_batch is None else lambda: on_batch(self.sessions())
        return self._scan.scan(
            progress, batch_done, tools=tools, tools_progress=tools_progress, stats=stats
        )

    def update_paths(self, paths: Iterable[Path]) -> list[Path]:
        """Re-index just these files (new/grown/replaced/deleted); returns those that changed.

        Their tool output is indexed before returning, unless it is large (then in the
        background)."""
        return self._scan.update_paths(paths)

    def forget(self, path: Path) -> None:
        """Drop one file from the index (e.g. after the user trashed it)."""
        self._scan.forget(path)

    def index_tools(self, progress: Progress | None = None) -> None:
        """Index all tool output not indexed yet, here (waits for a background pass first)."""
        self.tools.index_all(progress)

    @property
    def tools_pending(self) -> bool:
        """Whether some session's tool output is not searchable yet."""
        return self.tools.pending

    @property
    def tools_error(self) -> BaseException | None:
        """What ended the background tool pass early (None: nothing did)."""
        return self.tools.error

    # -- queries -----------------------------------------------------------------------------

    def sessions(self, cwd: str | None = None, store: Store = "local") -> list[SessionSummary]:
        """Pi's `listAll()` (cwd None) or `list(cwd)`, newest first; of the archive (`store`
        "archive", listed as the default root is), or of both ("all").

        What is indexed so far: never reads a session file (a first call reads the index; a
        scan running meanwhile adds to the answer of later calls)."""
        self.known.load()
        # listAll() of the default root (and of the archive, laid out as one)
        by_mtime = cwd is None and (self.custom_dir is None or store == "archive")
        ordered = self.known.ordered(by_mtime, store)
        if cwd is None:
            return list(ordered)
        if store != "local":
            return self._of_cwd_anywhere(ordered, cwd)
        if self.custom_dir is None:  # Pi's list(cwd): the cwd's own folder
            folder = str(discovery.project_dir(self.root, cwd))
            return [s for s in ordered if os.path.dirname(s.path) == folder]
        if self.custom_dir == discovery.project_dir(self.root, cwd):
            return list(ordered)
        return [s for s in ordered if discovery.same_cwd(s.cwd, cwd)]

    def _of_cwd_anywhere(self, ordered: list[SessionSummary], cwd: str) -> list[SessionSummary]:
        """The sessions of `cwd` in the other stores (its project folder in each), with the
        local ones."""
        local = {s.path for s in self.sessions(cwd)}
        roots = [m.folder for m in self.mirrors.values()]
        roots += [self.archive_dir] if self.archive_dir is not None else []
        folders = {str(discovery.project_dir(root, cwd)) for root in roots}
        return [
            s
            for s in ordered
            if s.path in local or (s.store != "local" and os.path.dirname(s.path) in folders)
        ]

    def writers(
        self,
        sessions: list[SessionSummary],
        targets: tuple[str, ...],
        progress: Progress | None = None,
    ) -> list[SessionSummary]:
        """The sessions of `sessions` (in their order) that may hold a successful write or
        edit of a target (absolute and resolved) or of anything under it: those the index's
        file ops name, their tool output indexed first (`progress(done, total)` in
        sessions), and those whose tool output the index does not hold (for the caller to
        read). `pitui log` then reads only these instead of every session."""
        paths = {s.path for s in sessions}
        self.tools.index_of(paths, progress)
        kept = self.index.sessions_writing(targets) | self.index.tools_unknown(paths)
        return [s for s in sessions if s.path in kept]

    def writing_to(self, value: str, here: str | None = None) -> set[str]:
        """The paths of the sessions a `file:VALUE` token selects: those the index's file ops
        say made a successful write or edit of VALUE (or of anything under it, or, for this
        machine's sessions, where it was before a `pitui move`: a remote's mirrored session
        wrote its own machine's folder), read from folder `here` (default: the current one)
        when relative. Only sessions whose tool output is indexed can be among them."""
        targets = file_targets(value, here or os.getcwd())
        found = self.index.sessions_writing(targets)
        earlier = tuple(path for path in self.earlier_paths(targets) if path not in targets)
        if earlier:
            wrote = self.index.sessions_writing(earlier)
            found |= {path for path in wrote if self.scope.mirror_of(path) is None}
        return found

    def search(
        self,
        query: str,
        *,
        cwd: str | None = None,
        sort: str = "threaded",
        named_only: bool = False,
        store: Store = "local",
        index_tools: bool = False,
        tools_progress: Progress | None = None,
        cancelled: Callable[[], bool] = lambda: False,
        here: str | None = None,
    ) -> SearchResult:
        """Pi's picker search (plus field filters) over the sessions in scope; an `in:archive`
        (`in:local`, `in:all`) token in `query` chooses the store instead of `store`.

        `index_tools`: first index the tool output of the sessions only it could still match
        (a command's exact answer, without waiting for the whole tool pass), and the
        conversation text not indexed yet when it is more than a search reads fast; else answer
        from what is indexed, and `tools_pending` on the result says that tool output was
        still being indexed, so sessions that only their tool output would match may be
        missing. `tools_progress(done, total)`: that indexing's (bytes of text, then
        sessions). `cancelled()` True: a newer question replaced this one (raises
        `SearchCancelled`). `here`: the folder a relative `file:PATH` is read from (default:
        the current one)."""
        pending = not index_tools and self.tools_pending
        store, query = split_store(query, store)
        if index_tools and query.strip() and self.index.texts_pending_bytes() > TEXT_SCAN_MAX:
            self.index.index_texts(threading.Event(), tools_progress)
        sessions = self.sessions(cwd, store)
        lookups = self._lookups(sessions, index_tools, tools_progress, cancelled, here)
        with self.index.searching():
            result = run_search(sessions, query, sort, named_only, lookups)
        result.tools_pending = pending
        return result

    def _lookups(
        self,
        sessions: list[SessionSummary],
        index_tools: bool,
        tools_progress: Progress | None,
        cancelled: Callable[[], bool],
        here: str | None,
    ) -> Lookups:
        """What a search asks of the index: tool output, text, file writes (see `search`)."""

        def on_text() -> None:
            if cancelled() or self._closing.is_set():
                raise SearchCancelled

        def texts(value: str, among: set[str]) -> set[str]:
            return self.index.text_holding(value, among, on_text)

        def texts_where(found: Callable[[str], bool], among: set[str]) -> set[str]:
            return self.index.texts_where(found, among, on_text)

        def files(value: str) -> set[str]:
            if index_tools:  # every session's file ops, first
                self.tools.index_of({s.path for s in sessions}, tools_progress)
            return self.writing_to(value, here)

        tools = self._tool_matcher(index_tools, tools_progress)
        return Lookups(tools, texts, texts_where, cancelled, files)

    def _tool_matcher(
        self, index_tools: bool, progress: Progress | None
    ) -> Callable[[str, bool, set[str]], set[str]]:
        if not index_tools:
            return self.index.tool_matches

        def matches(value: str, prefix: bool, among: set[str]) -> set[str]:
            self.tools.index_of(among, progress)
            return self.index.tool_matches(value, prefix, among)

        return matches

    def stop_scans(self) -> None:
        """A scan under way, and any later one, stops at its next batch (`ScanStopped`): the
        catalog is closing."""
        self._scan.stop()

    def close(self) -> None:
        """Stop a scan and a background pass (they resume on the next scan) and close the
        index."""
        self._closing.set()  # a regex search holds the index for up to 2 s otherwise
        self.stop_scans()
        self.tools.stop()
        self._workers.shutdown()
        self.index.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
