"""The session catalog: every session's summary, indexed, searchable (no Textual here).

`Catalog(root).scan()` brings the index up to date with the files (reading only what changed),
`sessions(cwd)` lists like Pi's `list(cwd)` / `listAll()`, `search(query)` works as Pi's picker.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pitui.core.catalog import discovery
from pitui.core.catalog.builder import SummaryBuilder
from pitui.core.catalog.index import FileRow, Index, Update, default_cache_dir
from pitui.core.catalog.scanner import read_update, stat_of, unchanged
from pitui.core.catalog.search import CatalogRow, SearchResult, run_search
from pitui.core.catalog.summary import SessionSummary

__all__ = ["Catalog", "CatalogRow", "ScanReport", "SearchResult", "SessionSummary"]
BATCH = 100
PARALLEL_MIN = 64


@dataclass
class ScanReport:
    sessions: int
    skipped_not_sessions: int
    unreadable: list[str] = field(default_factory=list)


def newest_first(summaries: Iterable[SessionSummary]) -> list[SessionSummary]:
    """Pi's order: `modified` descending (stable; Invalid Dates last), then file name descending."""
    by_name = sorted(summaries, key=lambda s: os.path.basename(s.path), reverse=True)
    return sorted(by_name, key=lambda s: -(s.modified_ms if s.modified_ms is not None else -9e15))


def _read_fresh(path: str) -> Update | None:
    return read_update(path, None, _no_builder)


def _no_builder(path: str) -> SummaryBuilder:
    raise AssertionError(path)


def _read_batches(
    fresh: list[str], known: list[str], rows: dict[str, FileRow], index: Index
) -> Iterator[tuple[list[str], list[Update | None]]]:
    """Read files in batches: new ones on all cores (cold scans), known ones here."""
    workers = min((os.cpu_count() or 1) - 1, 4)  # the main process writes the index meanwhile
    if len(fresh) >= PARALLEL_MIN and workers >= 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) as pool:
            results = pool.imap(_read_fresh, fresh, chunksize=8)
            for start in range(0, len(fresh), BATCH):
                batch = fresh[start : start + BATCH]
                yield batch, [next(results) for _ in batch]
    else:
        known = fresh + known
    for start in range(0, len(known), BATCH):
        batch = known[start : start + BATCH]
        yield batch, [read_update(p, rows.get(p), index.builder) for p in batch]


class Catalog:
    """All sessions under a sessions root (or one custom session dir), kept in an index."""

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
        self.index = Index(None if no_cache else (cache_dir or default_cache_dir()))
        self._summaries: dict[str, SessionSummary] = {}
        self._skipped: set[str] = set()
        self._loaded = False

    # -- indexing ----------------------------------------------------------------------------

    def scan(self, progress: Callable[[int, int], None] | None = None) -> ScanReport:
        """Bring the index up to date with every file in scope; progress(done, total)."""
        try:
            return self._scan(progress)
        except sqlite3.DatabaseError:
            self.index.reset()
            self._loaded = False
            return self._scan(progress)

    def _listing(self) -> discovery.Listing:
        if self.custom_dir is not None:
            return discovery.list_one(self.custom_dir)
        return discovery.list_all(self.root)

    def _scan(self, progress: Callable[[int, int], None] | None) -> ScanReport:
        listing = self._listing()
        rows = self.index.rows()
        paths = [str(p) for p in listing.files]
        wanted = set(paths)
        vanished = [p for p in rows if self._in_scope(p) and p not in wanted]
        stale = []
        for path in paths:
            st = stat_of(path)
            if st is None or not unchanged(rows.get(path), st):
                stale.append(path)
        if not self._loaded:
            self._summaries = self.index.summaries()
            self._skipped = {p for p, r in rows.items() if not r.is_session}
            self._loaded = True
        self._forget_memory(vanished)
        self.index.write([], vanished)
        self._refresh(stale, rows, progress, len(paths), len(paths) - len(stale))
        return ScanReport(
            sessions=sum(1 for p in self._summaries if p in wanted),
            skipped_not_sessions=sum(1 for p in self._skipped if p in wanted),
            unreadable=listing.unreadable,
        )

    def _in_scope(self, path: str) -> bool:
        base = self.custom_dir if self.custom_dir is not None else self.root
        return path.startswith(str(base) + os.sep)

    def _refresh(
        self,
        stale: list[str],
        rows: dict[str, FileRow],
        progress: Callable[[int, int], None] | None,
        total: int,
        done: int,
    ) -> list[str]:
        changed: list[str] = []
        if progress:
            progress(done, total)
        fresh = [p for p in stale if p not in rows]
        known = [p for p in stale if p in rows]
        for batch, results in _read_batches(fresh, known, rows, self.index):
            updates = [u for u in results if u is not None]
            gone = [p for p, u in zip(batch, results, strict=True) if u is None]
            self.index.write(updates, gone)
            changed += self._apply(updates, gone)
            done += len(batch)
            if progress:
                progress(done, total)
        return changed

    def _apply(self, updates: list[Update], gone: list[str]) -> list[str]:
        changed = [p for p in gone if p in self._summaries]
        self._forget_memory(gone)
        for update in updates:
            path = update.row.path
            old = self._summaries.get(path)
            if update.summary is None:
                self._skipped.add(path)
                if self._summaries.pop(path, None) is not None:
                    changed.append(path)
            else:
                self._skipped.discard(path)
                self._summaries[path] = update.summary
                if old is None or old.to_json() != update.summary.to_json():
                    changed.append(path)
        return changed

    def _forget_memory(self, paths: Iterable[str]) -> None:
        for path in paths:
            self._summaries.pop(path, None)
            self._skipped.discard(path)

    def update_paths(self, paths: Iterable[Path]) -> list[Path]:
        """Re-index just these files (new/grown/replaced/deleted); returns those that changed."""
        if not self._loaded:
            self.scan()
        rows = self.index.rows()
        stale: list[str] = []
        for path in {str(Path(p).absolute()) for p in paths}:
            st = stat_of(path)
            if st is None or not unchanged(rows.get(path), st):
                stale.append(path)
        return [Path(p) for p in self._refresh(stale, rows, None, len(stale), 0)]

    def forget(self, path: Path) -> None:
        """Drop one file from the index (e.g. after the user trashed it)."""
        key = str(Path(path).absolute())
        self.index.write([], [key])
        self._forget_memory([key])

    # -- queries -----------------------------------------------------------------------------

    def sessions(self, cwd: str | None = None) -> list[SessionSummary]:
        """Pi's `listAll()` (cwd None) or `list(cwd)`, newest first."""
        if not self._loaded:
            self.scan()
        return newest_first(s for s in self._summaries.values() if self._in_cwd_scope(s, cwd))

    def _in_cwd_scope(self, summary: SessionSummary, cwd: str | None) -> bool:
        if cwd is None:
            return True
        if self.custom_dir is None:
            folder = discovery.project_dir(self.root, cwd)
            return os.path.dirname(summary.path) == str(folder)
        if self.custom_dir == discovery.project_dir(self.root, cwd):
            return True
        return discovery.same_cwd(summary.cwd, cwd)

    def search(
        self,
        query: str,
        *,
        cwd: str | None = None,
        sort: str = "threaded",
        named_only: bool = False,
    ) -> SearchResult:
        """Pi's picker search (plus field filters) over the sessions in scope."""
        return run_search(self.sessions(cwd), query, sort, named_only, self.index.tool_matches)

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> Catalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
