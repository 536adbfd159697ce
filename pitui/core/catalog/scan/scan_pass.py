"""The catalog's first pass: bring the index up to date with the files in scope.

Only files whose size, mtime, inode or first bytes changed are read (a grown file from where
its indexed part ends); a cold scan of many new files parses them in worker processes
(`workers.py`). A `Catalog` mixin: the state it uses is made in `Catalog.__init__`, and the
in-memory steps it calls (`_rows`, `_load_known`, `_apply`, `_forget_memory`, `sessions`) are
`Catalog`'s.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pitui.core.catalog.index.index import FileRow, Index, Update
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.catalog.scan.filestat import Unreadable, stat_of, unchanged
from pitui.core.catalog.scan.tool_pass import Progress, ToolPass
from pitui.core.catalog.scan.workers import Result
from pitui.core.catalog.summary import SessionSummary
from pitui.core.session.harness import is_harness_file

BATCH = 100
PARALLEL_MIN = 200  # fresh files before parsing in worker processes pays for starting them
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
    changed: int = 0  # sessions (re)indexed or forgotten: 0, what was known is still true
    newer_formats: list[str] = field(default_factory=list)  # not counted as not sessions


class ScanPass(ToolPass):
    """Scanning the files in scope (all, or just some paths) into the index and memory."""

    root: Path
    custom_dir: Path | None
    archive_dir: Path | None
    mirrors: dict[str, Mirror]
    index: Index
    _passes: threading.RLock
    _summaries: dict[str, SessionSummary]
    _skipped: set[str]
    _problems: dict[str, Unreadable]
    _loaded: bool

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
            listing = discovery.list_one(self.custom_dir)
        else:
            listing = discovery.list_all(self.root)
        others = [self.archive_dir] if self.archive_dir is not None else []
        for folder in [*others, *(m.folder for m in self.mirrors.values())]:
            found = discovery.list_all(folder)
            listing.files += found.files
            listing.unreadable += found.unreadable
        return listing

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
            rejected = [p for p in self._skipped if p in wanted]
            newer = sorted(p for p in rejected if is_harness_file(p))
            return ScanReport(
                sessions=sum(1 for p in self._summaries if p in wanted),
                skipped_not_sessions=len(rejected) - len(newer),
                newer_formats=newer,
                unreadable=listing.unreadable + [str(p) for p in found if not p.skipped],
                notice=self.index.notice,
                skipped=[str(p) for p in found if p.skipped],
                problems=[
                    f"{path}: {summary.problem}"
                    for path, summary in self._summaries.items()
                    if summary.problem and path in wanted
                ],
                changed=len(stale) + len(vanished),
            )

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
            from pitui.core.catalog.scan.scanner import read_update  # not on a warm listing's way

            yield batch, [read_update(p, rows.get(p), self.index.builder) for p in batch]

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
        self._index_tools_here_if_small(tasks)
        self._start_tools(None)  # the rest, and the changed files' conversation text
        return changed

    def forget(self, path: Path) -> None:
        """Drop one file from the index (e.g. after the user trashed it)."""
        key = str(Path(path).absolute())
        with self._passes:
            self.index.write([], [key])
            self._forget_memory([key])
