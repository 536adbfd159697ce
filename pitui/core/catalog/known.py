"""The summaries of the sessions in a catalog's scope, in memory: what `Catalog.sessions` and
`Catalog.search` answer from, at once, even while a scan adds to them.

Loaded from the index once, without the conversation text (searched in the index, see
`index.text_index`); the scan's batches then change them (`apply`, `forget`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from pitui.core.catalog.index.index import FileRow, Index, Update
from pitui.core.catalog.scope import Scope, in_store
from pitui.core.catalog.search.ordering import newest_first
from pitui.core.catalog.summary import SessionSummary


class KnownSessions:
    """Every method may be called from any thread; the state is guarded by `_lock`, held
    briefly."""

    def __init__(self, scope: Scope, index: Index) -> None:
        self._scope = scope
        self._index = index
        self._lock = threading.RLock()
        self._summaries: dict[str, SessionSummary] = {}
        self._version = 0  # bumped on every change to _summaries
        self._ordered: dict[tuple[bool, str], tuple[int, list[SessionSummary]]] = {}
        self._skipped: set[str] = set()  # indexed files that are not sessions
        self._loaded = False

    @property
    def loaded(self) -> bool:
        with self._lock:
            return self._loaded

    def load(
        self,
        rows: dict[str, FileRow] | None = None,
        summaries: dict[str, SessionSummary] | None = None,
    ) -> None:
        """Once: the summaries the index already holds (reads no session file), unless the
        caller read them (`Scope.rows_and_summaries`)."""
        with self._lock:
            if self._loaded:
                return
            if summaries is None:
                summaries = self._read_summaries()
            self._summaries = summaries
            self._version += 1
            if rows is None:
                self._skipped = {p for p in self._index.not_sessions() if self._scope.holds(p)}
            else:
                self._skipped = {p for p, r in rows.items() if not r.is_session}
            self._loaded = True

    def _read_summaries(self) -> dict[str, SessionSummary]:
        known: dict[str, SessionSummary] = {}
        for prefix in self._scope.prefixes:
            known.update(self._index.summaries(prefix=prefix, with_text=False))
        return {p: self._scope.placed(s) for p, s in known.items() if self._scope.holds(p)}

    def unload(self) -> None:
        """Load again from the index next time (it was rebuilt)."""
        with self._lock:
            self._loaded = False

    def ordered(self, by_mtime: bool, store: str) -> list[SessionSummary]:
        """The sessions of `store` (see `scope.in_store`) in Pi's order (kept until a change)."""
        with self._lock:
            cached = self._ordered.get((by_mtime, store))
            if cached is None or cached[0] != self._version:
                found = [s for s in self._summaries.values() if in_store(s.store, store)]
                cached = self._ordered[(by_mtime, store)] = (
                    self._version,
                    newest_first(found, by_mtime),
                )
            return cached[1]

    def apply(self, updates: list[Update], gone: list[str]) -> list[str]:
        """Take a batch of the scan's results; returns the paths whose summary changed."""
        with self._lock:
            changed = [p for p in gone if p in self._summaries]
            self.forget(gone)
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
        self._summaries[path] = self._without_text(self._scope.placed(update.summary))
        if old is None or old.to_json() != update.summary.to_json():
            changed.append(path)

    def _without_text(self, summary: SessionSummary) -> SessionSummary:
        """The summary as kept: its text is in the index (searched there, see `text_index`),
        unless the index could not store it."""
        if self._index.holds_text(summary.path):
            summary.all_messages_text, summary.text_loaded = "", False
            summary._lower = summary._normalized = None
        return summary

    def forget(self, paths: Iterable[str]) -> None:
        with self._lock:
            for path in paths:
                if self._summaries.pop(path, None) is not None:
                    self._version += 1
                self._skipped.discard(path)

    def lists(self, path: str) -> bool:
        """Whether `path` is listed (a session with a summary)."""
        with self._lock:
            return path in self._summaries

    def counted(self, among: set[str]) -> tuple[int, list[str], list[str]]:
        """Of the files `among`: how many are listed sessions, which are not sessions, and
        "path: problem" of the sessions listed with only what could be read."""
        with self._lock:
            problems = [
                f"{path}: {summary.problem}"
                for path, summary in self._summaries.items()
                if summary.problem and path in among
            ]
            sessions = sum(1 for p in self._summaries if p in among)
            return sessions, [p for p in self._skipped if p in among], problems
