"""The catalog's first pass: bring the index up to date with the files in scope.

Only files whose size, mtime, inode or first bytes changed are read (a grown file from where
its indexed part ends); a cold scan of many new files parses them in worker processes
(`workers.py`). Each batch read is written to the index and given to the summaries in
memory (`KnownSessions`); the tool output is then left to the second pass (`ToolPass`).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pitui.core.catalog.index.index import FileRow, Index, Update
from pitui.core.catalog.known import KnownSessions
from pitui.core.catalog.scan.filestat import Unreadable, stat_of, unchanged
from pitui.core.catalog.scan.tool_pass import Progress, ToolPass
from pitui.core.catalog.scan.workers import Result, Workers
from pitui.core.catalog.scope import Scope
from pitui.core.session.harness import is_harness_file

BATCH = 100
PARALLEL_MIN = 200  # fresh files before parsing in worker processes pays for starting them
BatchDone = Callable[[], None]  # a batch of files is indexed and listed
ToolsMode = Literal["auto", "now", "background", "later"]


class ScanStopped(Exception):
    """The catalog was closed while it scanned."""


NAMED_AT_MOST = 3  # files that are not sessions named in a report; the rest counted


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
    not_sessions: list[str] = field(default_factory=list)  # the first few of those skipped


class ScanPass:
    """Scanning the files in scope (all, or just some paths) into the index and the summaries
    in memory; one pass (scan, update, forget) at a time (`_passes`)."""

    def __init__(
        self,
        scope: Scope,
        index: Index,
        known: KnownSessions,
        workers: Workers,
        tools: ToolPass,
    ) -> None:
        self._scope = scope
        self._index = index
        self._known = known
        self._workers = workers
        self._tools = tools
        self._passes = threading.RLock()
        self._closing = threading.Event()  # `stop`: a scan under way ends at its next batch
        self._problems: dict[str, Unreadable] = {}  # files in scope not read, and why

    def scan(
        self,
        progress: Progress | None = None,
        batch_done: BatchDone | None = None,
        *,
        tools: ToolsMode = "auto",
        tools_progress: Progress | None = None,
        stats: Mapping[str, os.stat_result] | None = None,
    ) -> ScanReport:
        """Bring the index up to date with every file in scope (see `Catalog.scan`)."""
        with self._passes:
            try:
                report = self._scan(progress, batch_done, stats or {})
            except sqlite3.DatabaseError as error:
                if self._closing.is_set():  # its database closed under it: not corrupt
                    raise ScanStopped from error
                self._index.reset(error)
                self._known.unload()
                report = self._scan(progress, batch_done, stats or {})
            if tools == "auto":
                interactive = progress is not None or batch_done is not None
                tools = "background" if interactive else "now"
            if tools == "now":
                self._tools.index_all(tools_progress)
            elif tools == "background":
                self._tools.start(tools_progress)
            else:
                self._workers.shutdown()
            return report

    def _scan(
        self,
        progress: Progress | None,
        batch_done: BatchDone | None,
        stats: Mapping[str, os.stat_result],
    ) -> ScanReport:
        listing = self._scope.listing()
        summaries = None
        if self._known.loaded:
            rows = self._scope.rows(self._index)
        else:
            rows, summaries = self._scope.rows_and_summaries(self._index)
        paths: list[str] = []
        stale_since: list[tuple[int, str]] = []
        problems: dict[str, Unreadable] = {}
        for path in listing.files:
            st = stat_of(path, stats.get(path))
            if isinstance(st, Unreadable):
                problems[path] = st
                continue
            paths.append(path)
            if st is None or not unchanged(rows.get(path), st):
                stale_since.append((0 if st is None else st.mtime_ns, path))
        # the newest first: a first launch lists the sessions at the top of the list first
        stale = [path for _, path in sorted(stale_since, reverse=True)]
        wanted = set(paths)
        vanished = [p for p in rows if p not in wanted]
        self._known.load(rows, summaries)
        if vanished:
            self._index.write([], vanished)
        self._known.forget(vanished)
        self._problems = problems
        with self._index.bulk(enabled=not rows):
            self._refresh(stale, rows, progress, len(paths), len(paths) - len(stale), batch_done)
        found = [p for p in self._problems.values() if not self._known.lists(p.path)]
        sessions, rejected, partly = self._known.counted(wanted)
        newer = sorted(p for p in rejected if is_harness_file(p))
        return ScanReport(
            sessions=sessions,
            skipped_not_sessions=len(rejected) - len(newer),
            newer_formats=newer,
            not_sessions=sorted(p for p in rejected if p not in newer)[:NAMED_AT_MOST],
            unreadable=listing.unreadable + [str(p) for p in found if not p.skipped],
            notice=self._index.notice,
            skipped=[str(p) for p in found if p.skipped],
            problems=partly,
            changed=len(stale) + len(vanished),
        )

    def _refresh(
        self,
        stale: list[str],
        rows: dict[str, FileRow],
        progress: Progress | None,
        total: int,
        done: int,
        batch_done: BatchDone | None = None,
    ) -> list[str]:
        changed: list[str] = []
        if progress:
            progress(done, total)
        fresh = [p for p in stale if p not in rows]
        known = [p for p in stale if p in rows]
        for batch, results in self._read_batches(fresh, known, rows):
            if self._closing.is_set():
                raise ScanStopped
            updates = [u for u in results if isinstance(u, Update)]
            gone = [p for p, u in zip(batch, results, strict=True) if not isinstance(u, Update)]
            self._index.write(updates, gone)
            self._index.keep(updates)
            changed += self._known.apply(updates, gone)
            for path, result in zip(batch, results, strict=True):
                if isinstance(result, Unreadable):
                    self._problems[path] = result
                else:
                    self._problems.pop(path, None)
            done += len(batch)
            if progress:
                progress(done, total)
            if batch_done:
                batch_done()
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
            # deferred: the file scanner, ~30 ms off a listing that reads no file
            from pitui.core.catalog.scan.scanner import read_update

            load = self._index.builder
            yield batch, [read_update(p, rows.get(p), load, keep=True) for p in batch]

    def stop(self) -> None:
        """The catalog is closing: a scan under way raises `ScanStopped` at its next batch
        (a first scan of 10,000 sessions ran on for seconds after the app was quit)."""
        self._closing.set()

    def update_paths(self, paths: Iterable[Path]) -> list[Path]:
        """Re-index just these files (new/grown/replaced/deleted); returns those that changed.

        Their tool output is indexed before returning, unless it is large (then in the
        background)."""
        with self._passes:
            if not self._known.loaded:
                self.scan(tools="background")
            wanted = {str(Path(p).absolute()) for p in paths}
            wanted = {p for p in wanted if self._scope.holds(p) and p.endswith(".jsonl")}
            rows = self._index.rows_of(wanted)
            stale: list[str] = []
            for path in wanted:
                st = stat_of(path)
                if isinstance(st, Unreadable):
                    self._problems[path] = st
                    st = None  # dropped from the listing, as a scan does
                if st is None or not unchanged(rows.get(path), st):
                    stale.append(path)
            changed = [Path(p) for p in self._refresh(stale, rows, None, len(stale), 0)]
            tasks = self._index.tool_tasks(stale)
        self._tools.index_here_if_small(tasks)
        self._tools.start(None)  # the rest, and the changed files' conversation text
        return changed

    def forget(self, path: Path) -> None:
        """Drop one file from the index (e.g. after the user trashed it)."""
        key = str(Path(path).absolute())
        with self._passes:
            self._index.write([], [key])
            self._known.forget([key])
