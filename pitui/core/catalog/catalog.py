"""The session catalog: every session's summary, indexed, searchable (no Textual here).

`Catalog(root).scan()` brings the index up to date with the files (reading only what changed),
`sessions(cwd)` lists like Pi's `list(cwd)` / `listAll()`, `search(query)` works as Pi's picker.

Tool output (most of the bytes, searched only by pitui's last tier) is indexed in a second pass
(`index_tools`), in the background when the caller is interactive: `search` then says
`tools_pending` until it is done. The same pass first builds the trigram index of conversation
text (`text_index`), which only narrows the search's scan: until a file is in it, it is
scanned.

A cold scan of many new files also parses in worker processes (`workers.py`: a script that
uses the catalog must keep its top level behind `if __name__ == "__main__":`).
"""

from __future__ import annotations

import itertools
import math
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pitui.core.catalog import discovery
from pitui.core.catalog.collation import collation_key
from pitui.core.catalog.filestat import Unreadable, stat_of, unchanged
from pitui.core.catalog.index import FileRow, Index, ToolTask, Update, default_cache_dir
from pitui.core.catalog.search import CatalogRow, Lookups, SearchResult, run_search
from pitui.core.catalog.summary import SessionSummary
from pitui.core.catalog.workers import Result, Workers

__all__ = ["Catalog", "CatalogRow", "ScanReport", "SearchResult", "SessionSummary"]
BATCH = 100
PARALLEL_MIN = 200  # fresh files before parsing in worker processes pays for starting them
TOOL_BATCH_BYTES = 4 * 1024 * 1024  # tool text per transaction (keeps the lock short)
Progress = Callable[[int, int], None]
OnBatch = Callable[[list[SessionSummary]], None]
ToolsMode = Literal["auto", "now", "background", "later"]


@dataclass
class ScanReport:
    """`unreadable`: folders and files that could not be read, `skipped`: `.jsonl` names that
    are not regular files (FIFOs, devices, directories: never opened), `problems`: sessions
    that could only be indexed in part (listed with what was read); each "path: why"."""

    sessions: int
    skipped_not_sessions: int
    unreadable: list[str] = field(default_factory=list)
    notice: str | None = None  # e.g. the index is in use by another pitui: a temporary one
    skipped: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # sessions listed with what was read


def newest_first(
    summaries: Iterable[SessionSummary], by_mtime: bool = True
) -> list[SessionSummary]:
    """Pi's order: `modified` descending (Invalid Dates last), then (`listAll()` of the
    default root only) the file's mtime, newest first, then the file name by `localeCompare`,
    descending (`list(cwd)` and a custom dir: the name only). Names are compared only
    where the times tie (rare, and a collation key costs more than the rest of the sort)."""

    def times(s: SessionSummary) -> tuple[float, float]:
        modified = s.modified_ms if s.modified_ms is not None else -math.inf
        return modified, _node_mtime_ms(s.mtime_ns) if by_mtime else 0.0

    ordered = sorted(summaries, key=times, reverse=True)
    out: list[SessionSummary] = []
    for _, run in itertools.groupby(ordered, key=times):
        tied = list(run)
        if len(tied) > 1:
            tied.sort(key=lambda s: collation_key(os.path.basename(s.path)), reverse=True)
        out += tied
    return out


def _node_mtime_ms(mtime_ns: int) -> float:
    """Node's `stats.mtimeMs`, a double."""
    sec, nsec = divmod(mtime_ns, 1_000_000_000)
    return sec * 1e3 + nsec / 1e6


class Catalog:
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
    ) -> None:
        self.root = Path(sessions_root).absolute()
        self.custom_dir = Path(custom_dir).absolute() if custom_dir is not None else None
        self._scope_dir = str(self.custom_dir or self.root)
        self._scope_prefix = os.path.join(self._scope_dir, "")
        self.index = Index(None if no_cache else (cache_dir or default_cache_dir()))
        self._lock = threading.RLock()  # the attributes below (held briefly)
        self._passes = threading.RLock()  # one scan / update / forget at a time
        self._summaries: dict[str, SessionSummary] = {}
        self._version = 0  # bumped on every change to _summaries
        self._ordered: dict[bool, tuple[int, list[SessionSummary]]] = {}
        self._skipped: set[str] = set()
        self._problems: dict[str, Unreadable] = {}  # files in scope not read, and why
        self._loaded = False
        self._texts_pending = False  # summaries read from the index without their text
        self._workers = Workers()
        self._tools_thread: threading.Thread | None = None
        self._tools_again = False
        self._stop = threading.Event()
        self.tools_error: BaseException | None = None

    # -- indexing ----------------------------------------------------------------------------

    def scan(
        self,
        progress: Progress | None = None,
        on_batch: OnBatch | None = None,
        *,
        tools: ToolsMode = "auto",
        tools_progress: Progress | None = None,
    ) -> ScanReport:
        """Bring the index up to date with every file in scope.

        `progress(done, total)` counts files; `on_batch(sessions)` gets, every ~100 files, the
        sessions listed so far (newest first, as `sessions()`). Tool output is then indexed
        per `tools`: "now" (before returning), "background" (a thread; `tools_progress(done,
        total)` counts bytes, called from that thread), "later" (call `index_tools`); "auto"
        is "background" when `progress` or `on_batch` is given (an interactive caller), else
        "now".
        """
        with self._passes:
            try:
                report = self._scan(progress, on_batch)
            except sqlite3.DatabaseError as error:
                self.index.reset(error)
                with self._lock:
                    self._loaded = False
                report = self._scan(progress, on_batch)
            if tools == "auto":
                tools = "background" if progress is not None or on_batch is not None else "now"
            if tools == "now":
                self.index_tools(tools_progress)
            elif tools == "background":
                self._start_tools(tools_progress)
            else:
                self._workers.shutdown()
            return report

    def _listing(self) -> discovery.Listing:
        if self.custom_dir is not None:
            return discovery.list_one(self.custom_dir)
        return discovery.list_all(self.root)

    def _scan(self, progress: Progress | None, on_batch: OnBatch | None) -> ScanReport:
        listing = self._listing()
        rows = self._rows()
        paths: list[str] = []
        stale: list[str] = []
        problems: dict[str, Unreadable] = {}
        for path in listing.files:
            st = stat_of(path)
            if isinstance(st, Unreadable):
                problems[path] = st
                continue
            paths.append(path)
            if st is None or not unchanged(rows.get(path), st):
                stale.append(path)
        wanted = set(paths)
        vanished = [p for p in rows if p not in wanted]
        self._load_known(rows)
        if vanished:
            self.index.write([], vanished)
        self._forget_memory(vanished)
        with self._lock:
            self._problems = problems
        with self.index.bulk(enabled=not rows):
            self._refresh(stale, rows, progress, len(paths), len(paths) - len(stale), on_batch)
        with self._lock:
            found = [p for p in self._problems.values() if p.path not in self._summaries]
            return ScanReport(
                sessions=sum(1 for p in self._summaries if p in wanted),
                skipped_not_sessions=sum(1 for p in self._skipped if p in wanted),
                unreadable=listing.unreadable + [str(p) for p in found if not p.skipped],
                notice=self.index.notice,
                skipped=[str(p) for p in found if p.skipped],
                problems=[
                    f"{path}: {summary.problem}"
                    for path, summary in self._summaries.items()
                    if summary.problem and path in wanted
                ],
            )

    def _load_known(self, rows: dict[str, FileRow] | None = None) -> None:
        """Once: the summaries the index already holds (reads no session file)."""
        with self._lock:
            if self._loaded:
                return
            rows = self._rows() if rows is None else rows
            known = self.index.summaries(prefix=self._scope_prefix, with_text=False)
            self._texts_pending = True
            self._summaries = {p: s for p, s in known.items() if self._in_scope(p)}
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
            texts = self.index.texts(self._scope_prefix)
            for path, summary in self._summaries.items():
                if not summary.text_loaded:
                    summary.all_messages_text = texts.get(path, "")
                    summary.text_loaded = True
                    summary._lower = summary._normalized = None

    def _in_scope(self, path: str) -> bool:
        """Whether a listing of this catalog's roots can hold `path` (the index is shared by
        every store: another's rows, or rows under a folder of this root, are not ours)."""
        folder = os.path.dirname(path)
        if self.custom_dir is None:
            folder = os.path.dirname(folder)
        return folder == self._scope_dir

    def _rows(self) -> dict[str, FileRow]:
        rows = self.index.rows(self._scope_prefix)
        return {p: r for p, r in rows.items() if self._in_scope(p)}

    def _refresh(
        self,
        stale: list[str],
        rows: dict[str, FileRow],
        progress: Progress | None,
        total: int,
        done: int,
        on_batch: OnBatch | None = None,
    ) -> list[str]:
        changed: list[str] = []
        if progress:
            progress(done, total)
        fresh = [p for p in stale if p not in rows]
        known = [p for p in stale if p in rows]
        for batch, results in self._read_batches(fresh, known, rows):
            updates = [u for u in results if isinstance(u, Update)]
            gone = [p for p, u in zip(batch, results, strict=True) if not isinstance(u, Update)]
            self.index.write(updates, gone)
            changed += self._apply(updates, gone)
            with self._lock:
                for path, result in zip(batch, results, strict=True):
                    if isinstance(result, Unreadable):
                        self._problems[path] = result
                    else:
                        self._problems.pop(path, None)
            done += len(batch)
            if progress:
                progress(done, total)
            if on_batch:
                on_batch(self.sessions())
        return changed

    def _read_batches(
        self, fresh: list[str], known: list[str], rows: dict[str, FileRow]
    ) -> Iterator[tuple[list[str], list[Result]]]:
        """Read files in batches: many new ones on all cores (cold scans), the rest here."""
        if len(fresh) >= PARALLEL_MIN and self._workers.start():
            yield from self._workers.read_fresh(fresh, BATCH)
        else:
            known = fresh + known
        for start in range(0, len(known), BATCH):
            batch = known[start : start + BATCH]
            from pitui.core.catalog.scanner import read_update  # not on a warm listing's way

            yield batch, [read_update(p, rows.get(p), self.index.builder) for p in batch]

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
        self._summaries[path] = update.summary
        if old is None or old.to_json() != update.summary.to_json():
            changed.append(path)

    def _forget_memory(self, paths: Iterable[str]) -> None:
        with self._lock:
            for path in paths:
                if self._summaries.pop(path, None) is not None:
                    self._version += 1
                self._skipped.discard(path)

    def update_paths(self, paths: Iterable[Path]) -> list[Path]:
        """Re-index just these files (new/grown/replaced/deleted); returns those that changed.

        Their tool output is indexed before returning, unless it is large (then in the
        background)."""
        with self._passes:
            if not self._loaded:
                self.scan(tools="background")
            rows = self._rows()
            stale: list[str] = []
            for path in {str(Path(p).absolute()) for p in paths}:
                if not self._in_scope(path) or not path.endswith(".jsonl"):
                    continue
                st = stat_of(path)
                if isinstance(st, Unreadable):
                    with self._lock:
                        self._problems[path] = st
                    st = None  # dropped from the listing, as a scan does
                if st is None or not unchanged(rows.get(path), st):
                    stale.append(path)
            changed = [Path(p) for p in self._refresh(stale, rows, None, len(stale), 0)]
            tasks = self.index.tool_tasks(stale)
        if sum(t.end - t.start for t in tasks) <= TOOL_BATCH_BYTES:
            self._index_tools(tasks, None, threading.Event())
        self._start_tools(None)  # the rest, and the changed files' conversation text
        return changed

    def forget(self, path: Path) -> None:
        """Drop one file from the index (e.g. after the user trashed it)."""
        key = str(Path(path).absolute())
        with self._passes:
            self.index.write([], [key])
            self._forget_memory([key])

    # -- tool output -------------------------------------------------------------------------

    @property
    def tools_pending(self) -> bool:
        """Whether some session's tool output is not searchable yet."""
        with self._lock:
            thread = self._tools_thread
        return (thread is not None and thread.is_alive()) or bool(self.index.tool_tasks_left())

    def index_tools(self, progress: Progress | None = None) -> None:
        """Index all tool output not indexed yet, here (waits for a background pass first)."""
        with self._lock:
            thread = self._tools_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self.index.index_texts(self._stop)
        self.index.collect_tool_garbage()
        self._index_tools(self.index.tool_tasks(), progress, self._stop)
        self._workers.shutdown()

    def _start_tools(self, progress: Progress | None) -> None:
        with self._lock:
            thread = self._tools_thread
            if thread is not None and thread.is_alive():
                self._tools_again = True  # the running pass goes round once more
                return
            left = self.index.texts_left() or self.index.tool_tasks_left()
            start = not self._stop.is_set() and left
            if start:
                self._tools_again = False
                self._tools_thread = threading.Thread(
                    target=self._tools_worker,
                    args=(progress,),
                    name="pitui-catalog-tools",
                    daemon=True,
                )
                self._tools_thread.start()
        if not start:
            self._workers.shutdown()

    def _tools_worker(self, progress: Progress | None) -> None:
        try:
            self.index.collect_tool_garbage()
            while not self._stop.is_set():
                self.index.index_texts(self._stop)
                self._index_tools(self.index.tool_tasks(), progress, self._stop)
                with self._lock:
                    if not self._tools_again:
                        break
                    self._tools_again = False
        except Exception as error:  # e.g. the catalog was closed meanwhile
            self.tools_error = error
        finally:
            self._workers.shutdown()

    def _index_tools(
        self, tasks: list[ToolTask], progress: Progress | None, stop: threading.Event
    ) -> None:
        total = sum(t.end - t.start for t in tasks)
        done = 0
        if progress:
            progress(0, total)
        batch: list[tuple[ToolTask, str]] = []
        size = 0
        for task, pieces in self._workers.read_tools(tasks):
            if stop.is_set():
                return
            batch += pieces
            size += sum(len(text) for _, text in pieces)
            done += task.end - task.start
            if size >= TOOL_BATCH_BYTES:
                self.index.add_tools(batch)
                batch, size = [], 0
                if progress:
                    progress(done, total)
        if batch:
            self.index.add_tools(batch)
        if progress:
            progress(total, total)

    # -- queries -----------------------------------------------------------------------------

    def sessions(self, cwd: str | None = None) -> list[SessionSummary]:
        """Pi's `listAll()` (cwd None) or `list(cwd)`, newest first.

        What is indexed so far: never reads a session file (a first call reads the index; a
        scan running meanwhile adds to the answer of later calls)."""
        self._load_known()
        by_mtime = cwd is None and self.custom_dir is None  # listAll() of the default root
        with self._lock:
            cached = self._ordered.get(by_mtime)
            if cached is None or cached[0] != self._version:
                found = list(self._summaries.values())
                cached = self._ordered[by_mtime] = (self._version, newest_first(found, by_mtime))
        ordered = cached[1]
        if cwd is None:
            return list(ordered)
        if self.custom_dir is None:  # Pi's list(cwd): the cwd's own folder
            folder = str(discovery.project_dir(self.root, cwd))
            return [s for s in ordered if os.path.dirname(s.path) == folder]
        if self.custom_dir == discovery.project_dir(self.root, cwd):
            return list(ordered)
        return [s for s in ordered if discovery.same_cwd(s.cwd, cwd)]

    def search(
        self,
        query: str,
        *,
        cwd: str | None = None,
        sort: str = "threaded",
        named_only: bool = False,
    ) -> SearchResult:
        """Pi's picker search (plus field filters) over the sessions in scope.

        `tools_pending` on the result: tool output was still being indexed, so sessions that
        only their tool output would match may be missing."""
        pending = self.tools_pending
        if query.strip():
            self._load_texts()
        result = run_search(
            self.sessions(cwd),
            query,
            sort,
            named_only,
            Lookups(self.index.tool_matches, self.index.text_matches),
        )
        result.tools_pending = pending
        return result

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
