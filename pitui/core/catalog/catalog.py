"""The session catalog: every session's summary, indexed, searchable (no Textual here).

`Catalog(root).scan()` brings the index up to date with the files (reading only what changed),
`sessions(cwd)` lists like Pi's `list(cwd)` / `listAll()`, `search(query)` works as Pi's picker.

Tool output (most of the bytes, searched only by pitui's last tier) is indexed in a second pass
(`index_tools`), in the background when the caller is interactive: `search` then says
`tools_pending` until it is done. A command's search indexes just the tool output of the
sessions no other tier matched (`search(index_tools=True)`), so a first search waits for
neither index. The same pass first builds the trigram index of conversation
text (`text_index`), which only narrows the search's scan: until a file is in it, it is
scanned.

A cold scan of many new files also parses in worker processes (`workers.py`: a script that
uses the catalog must keep its top level behind `if __name__ == "__main__":`).

This module holds the catalog's state and answers queries from it; the passes that fill it
are `scan_pass` (files to index) and `tool_pass` (tool output and trigrams, after).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from pitui.core.catalog.index.index import FileRow, Index, Update, default_cache_dir
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.catalog.scan.filestat import Unreadable
from pitui.core.catalog.scan.scan_pass import ScanPass, ScanReport
from pitui.core.catalog.scan.tool_pass import Progress
from pitui.core.catalog.scan.workers import Workers
from pitui.core.catalog.search.ordering import newest_first
from pitui.core.catalog.search.query import Store, split_store
from pitui.core.catalog.search.search import CatalogRow, Lookups, SearchResult, run_search
from pitui.core.catalog.summary import SessionSummary

__all__ = ["Catalog", "CatalogRow", "ScanReport", "SearchResult", "SessionSummary"]


class Catalog(ScanPass):
    """All sessions under a sessions root (or one custom session dir), kept in an index.

    Every method may be called from any thread. `_lock` guards the in-memory state and is
    only held briefly, so `sessions`/`search` answer at once from what is indexed so far, even
    while a scan runs; `_passes` runs one indexing pass (scan, update, forget) at a time. The
    SQLite connection is shared by all threads under the index's own lock.
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
    ) -> None:
        self.root = Path(sessions_root).absolute()
        self.custom_dir = Path(custom_dir).absolute() if custom_dir is not None else None
        self.archive_dir = Path(archive_dir).absolute() if archive_dir is not None else None
        self._scope_dir = str(self.custom_dir or self.root)
        self._archive_scope = str(self.archive_dir) if self.archive_dir is not None else None
        self.mirrors = {str(m.folder.absolute()): m for m in mirrors}
        folders = (self._scope_dir, self._archive_scope, *self.mirrors)
        self._prefixes = [os.path.join(folder, "") for folder in folders if folder]
        self.index = Index(None if no_cache else (cache_dir or default_cache_dir()))
        self._lock = threading.RLock()  # the attributes below (held briefly)
        self._passes = threading.RLock()  # one scan / update / forget at a time
        self._summaries: dict[str, SessionSummary] = {}
        self._version = 0  # bumped on every change to _summaries
        self._ordered: dict[tuple[bool, str], tuple[int, list[SessionSummary]]] = {}
        self._skipped: set[str] = set()
        self._problems: dict[str, Unreadable] = {}  # files in scope not read, and why
        self._loaded = False
        self._texts_pending = False  # summaries read from the index without their text
        self._workers = Workers()
        self._tools_thread: threading.Thread | None = None
        self._tools_again = False
        self._stop = threading.Event()
        self.tools_error: BaseException | None = None

    # -- in memory ---------------------------------------------------------------------------

    def _load_known(self, rows: dict[str, FileRow] | None = None) -> None:
        """Once: the summaries the index already holds (reads no session file)."""
        with self._lock:
            if self._loaded:
                return
            rows = self._rows() if rows is None else rows
            known: dict[str, SessionSummary] = {}
            for prefix in self._prefixes:
                known.update(self.index.summaries(prefix=prefix, with_text=False))
            self._texts_pending = True
            self._summaries = {p: self._placed(s) for p, s in known.items() if self._in_scope(p)}
            self._version += 1
            self._skipped = {p for p, r in rows.items() if not r.is_session}
            self._loaded = True

    def _load_texts(self) -> None:
        """The conversation text of the summaries read from the index without it (once: a
        listing without a search never reads it)."""
        with self._lock:
            if not self._texts_pending:
                return
            self._texts_pending = False
            if all(summary.text_loaded for summary in self._summaries.values()):
                return  # all read by the scan (a cold one)
            texts: dict[str, str] = {}
            for prefix in self._prefixes:
                texts.update(self.index.texts(prefix))
            for path, summary in self._summaries.items():
                if not summary.text_loaded:
                    summary.all_messages_text = texts.get(path, "")
                    summary.text_loaded = True
                    summary._lower = summary._normalized = None

    def _in_scope(self, path: str) -> bool:
        """Whether a listing of this catalog's roots can hold `path` (the index is shared by
        every store: another's rows, or rows under a folder of this root, are not ours)."""
        folder = os.path.dirname(path)
        elsewhere = self._archived(path) or self._mirror_of(path) is not None
        if self.custom_dir is None:
            return os.path.dirname(folder) == self._scope_dir or elsewhere
        return folder == self._scope_dir or elsewhere

    def _archived(self, path: str) -> bool:
        """Whether `path` is in a project folder of the archive root (when it is listed)."""
        return self._archive_scope is not None and (
            os.path.dirname(os.path.dirname(path)) == self._archive_scope
        )

    def _mirror_of(self, path: str) -> Mirror | None:
        """The remote mirror whose project folders hold `path` (when it is listed)."""
        return self.mirrors.get(os.path.dirname(os.path.dirname(path))) if self.mirrors else None

    def _placed(self, summary: SessionSummary) -> SessionSummary:
        """`summary` with its store said (the index keeps no store: a file's place says it)."""
        mirror = self._mirror_of(summary.path)
        if mirror is not None:
            summary.store, summary.remote_path = mirror.name, mirror.remote_path(summary.path)
        else:
            summary.store = "archive" if self._archived(summary.path) else "local"
        return summary

    def _rows(self) -> dict[str, FileRow]:
        rows: dict[str, FileRow] = {}
        for prefix in self._prefixes:
            rows.update(self.index.rows(prefix))
        return {p: r for p, r in rows.items() if self._in_scope(p)}

    def _apply(self, updates: list[Update], gone: list[str]) -> list[str]:
        with self._lock:
            changed = [p for p in gone if p in self._summaries]
            self._forget_memory(gone)
            for update in updates:
                self._apply_one(update, changed)
            return changed

    def _apply_one(self, update: Update, changed: list[str]) -> None:
        path = update.row.path
        old = self._summaries.get(path)
        self._version += 1
        if update.summary is None:
            self._skipped.add(path)
            if self._summaries.pop(path, None) is not None:
                changed.append(path)
            return
        self._skipped.discard(path)
        self._summaries[path] = self._placed(update.summary)
        if old is None or old.to_json() != update.summary.to_json():
            changed.append(path)

    def _forget_memory(self, paths: Iterable[str]) -> None:
        with self._lock:
            for path in paths:
                if self._summaries.pop(path, None) is not None:
                    self._version += 1
                self._skipped.discard(path)

    # -- queries -----------------------------------------------------------------------------

    def sessions(self, cwd: str | None = None, store: Store = "local") -> list[SessionSummary]:
        """Pi's `listAll()` (cwd None) or `list(cwd)`, newest first; of the archive (`store`
        "archive", listed as the default root is), or of both ("all").

        What is indexed so far: never reads a session file (a first call reads the index; a
        scan running meanwhile adds to the answer of later calls)."""
        self._load_known()
        # listAll() of the default root (and of the archive, laid out as one)
        by_mtime = cwd is None and (self.custom_dir is None or store == "archive")
        with self._lock:
            cached = self._ordered.get((by_mtime, store))
            if cached is None or cached[0] != self._version:
                found = [s for s in self._summaries.values() if store in ("all", s.store)]
                ordered_now = newest_first(found, by_mtime)
                cached = self._ordered[(by_mtime, store)] = (self._version, ordered_now)
        ordered = cached[1]
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
    ) -> SearchResult:
        """Pi's picker search (plus field filters) over the sessions in scope; an `in:archive`
        (`in:local`, `in:all`) token in `query` chooses the store instead of `store`.

        `index_tools`: first index the tool output of the sessions only it could still match
        (a command's exact answer, without waiting for the whole tool pass); else answer
        from what is indexed, and `tools_pending` on the result says that tool output was
        still being indexed, so sessions that only their tool output would match may be
        missing. `tools_progress(done, total)`: that indexing's, in sessions."""
        pending = not index_tools and self.tools_pending
        store, query = split_store(query, store)
        if query.strip():
            self._load_texts()
        result = run_search(
            self.sessions(cwd, store),
            query,
            sort,
            named_only,
            Lookups(self._tool_matcher(index_tools, tools_progress), self.index.text_matches),
        )
        result.tools_pending = pending
        return result

    def _tool_matcher(
        self, index_tools: bool, progress: Progress | None
    ) -> Callable[[str, set[str]], set[str]]:
        if not index_tools:
            return self.index.tool_matches

        def matches(fts_query: str, among: set[str]) -> set[str]:
            self.index_tools_of(among, progress)
            return self.index.tool_matches(fts_query, among)

        return matches

    def close(self) -> None:
        """Stop a background pass (it resumes on the next scan) and close the index."""
        self._stop.set()
        with self._lock:
            thread = self._tools_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self._workers.shutdown()
        self.index.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
