"""Live sessions: open sessions kept up to date from file changes, as events.

`LiveSession` wraps a `Session`; `apply_change()` (thread-safe) reads what was appended and
publishes `EntriesAppended`, `SessionReloaded` or `SessionGone` to its subscribers.
`LiveStore` owns one `SessionWatcher` over the session roots, refreshes the sessions opened
through it on their batches, and forwards every batch to store-level subscribers (the
catalog hooks in there).

Subscribers are called in the thread that applied the change (the watcher thread), with the
session's lock held so that events arrive in order: they must be quick (a UI posts a message
to its own thread). Read `live.session` under `live.lock` from other threads.
Pure Python: no Textual import.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pitui.core.live.watcher import (
    SESSION_SUFFIX,
    ChangeBatch,
    SessionWatcher,
    Signature,
    file_signature,
)
from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import prefetch_text_flags
from pitui.core.session.reader import NotASession, Progress
from pitui.core.session.session import Session

log = logging.getLogger(__name__)
_Event = TypeVar("_Event")


@dataclass(frozen=True, slots=True)
class EntriesAppended:
    """New complete entries at the end of the file, already added to the session's tree."""

    entries: list[Entry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SessionReloaded:
    """The session was read again whole (shrunk, replaced, header changed, or came back):
    rebuild any view from `live.session`."""


@dataclass(frozen=True, slots=True)
class SessionGone:
    """The file was deleted or moved away. The last state stays readable; should the file
    come back, a `SessionReloaded` follows."""

    reason: str


SessionEvent = EntriesAppended | SessionReloaded | SessionGone
SessionCallback = Callable[[SessionEvent], None]
StoreCallback = Callable[[ChangeBatch], None]


def _call_all(callbacks: Iterable[Callable[[_Event], None]], value: _Event) -> None:
    for callback in callbacks:
        try:
            callback(value)
        except Exception:
            log.exception("subscriber failed")


class LiveSession:
    """An open session that follows its file. Raises `NotASession` if it cannot be opened.

    For the entries a refresh appends, it also works out what the tree view asks of each
    (whether an assistant message has text): here, in the watcher's thread, not in the UI's.
    A whole tree's flags are worked out where its rows are built (the screen's load worker)."""

    def __init__(self, path: str | os.PathLike[str], progress: Progress | None = None) -> None:
        self.path = Path(path).absolute()
        self.lock = threading.RLock()
        self.session = Session(self.path, progress)
        self.gone: str | None = None  # why the file is gone, while it is
        self.problem: str | None = None  # why the last refresh could not read it (waiting)
        self._subscribers: list[SessionCallback] = []

    def subscribe(self, callback: SessionCallback) -> Callable[[], None]:
        """Call `callback(event)` for every event; returns a function that unsubscribes."""
        with self.lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self.lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def apply_change(self) -> list[SessionEvent]:
        """Bring the session up to date with its file; publish and return the events."""
        with self.lock:
            events = self._update()
            for event in events:
                _call_all(list(self._subscribers), event)
            return events

    def _update(self) -> list[SessionEvent]:
        try:
            update = self.session.refresh()
        except NotASession as error:
            if os.path.lexists(self.path):
                self.problem = str(error)  # e.g. emptied for a rewrite: wait for its bytes
                return []
            return self._mark_gone("the session file was deleted or moved")
        self.problem = None
        if not update.reset:
            prefetch_text_flags(update.entries)
        if self.gone is not None:
            self.gone = None
            return [SessionReloaded()]
        if update.reset:
            return [SessionReloaded()]
        return [EntriesAppended(update.entries)] if update.entries else []

    def _mark_gone(self, reason: str) -> list[SessionEvent]:
        if self.gone is not None:
            return []
        self.gone = reason
        return [SessionGone(reason)]


class LiveStore:
    """The session roots watched as one: open sessions follow their files, and every change
    batch goes to store subscribers.

    `watch=False` starts no thread (`--no-watch`, tests); `poll_once()` then finds the
    changes by comparing file signatures with the previous poll.
    """

    def __init__(
        self,
        roots: Iterable[str | os.PathLike[str]],
        *,
        watch: bool = True,
        debounce_ms: int = 50,
        force_polling: bool | None = None,
    ) -> None:
        self.roots = [Path(root).absolute() for root in roots]
        self._lock = threading.RLock()
        self._sessions: dict[Path, LiveSession] = {}
        self._store_subscribers: list[StoreCallback] = []
        self._snapshot: dict[Path, Signature] | None = None
        self.notice: str | None = None
        self.watcher: SessionWatcher | None = None
        if watch:
            self.watcher = SessionWatcher(
                self.roots, self.dispatch, debounce_ms=debounce_ms, force_polling=force_polling
            )
            self.watcher.start()
        else:
            self._snapshot = self._scan()

    # -- sessions ----------------------------------------------------------------------

    def open(self, path: str | os.PathLike[str], progress: Progress | None = None) -> LiveSession:
        """The live session of `path` (the same object for the same path while open);
        `progress(done, total)` hears how much of the file is read."""
        key = Path(path).absolute()
        with self._lock:
            existing = self._sessions.get(key)
        if existing is not None:
            return existing
        live = LiveSession(key, progress)  # reads the file: outside the store lock
        with self._lock:
            live = self._sessions.setdefault(key, live)
        self._watch_outside_roots(key)
        live.apply_change()  # catch up with what was appended while it was read
        return live

    def close_session(self, path: str | os.PathLike[str]) -> None:
        """Stop following `path` (its LiveSession stays usable but is no longer refreshed)."""
        with self._lock:
            self._sessions.pop(Path(path).absolute(), None)

    def sessions(self) -> list[LiveSession]:
        with self._lock:
            return list(self._sessions.values())

    def _watch_outside_roots(self, path: Path) -> None:
        if self.watcher is None or any(path.is_relative_to(root) for root in self.roots):
            return
        self.watcher.add_root(path.parent)

    # -- store subscribers ---------------------------------------------------------------

    def subscribe_store(self, callback: StoreCallback) -> Callable[[], None]:
        """Call `callback(batch)` for every change batch; returns an unsubscribe function.

        A notice already given (the switch to polling comes as the watcher starts, before a UI
        subscribes) is passed on at once, as a batch with just that notice."""
        with self._lock:
            self._store_subscribers.append(callback)
            notice = self.notice
        if notice:
            _call_all([callback], ChangeBatch(notice=notice))

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._store_subscribers:
                    self._store_subscribers.remove(callback)

        return unsubscribe

    # -- changes -----------------------------------------------------------------------

    def dispatch(self, batch: ChangeBatch) -> None:
        """Apply one batch: refresh the open sessions it touches, then tell subscribers."""
        if batch.notice:
            self.notice = batch.notice
        for live in self._touched(batch):
            try:
                live.apply_change()
            except Exception:
                log.exception("refreshing %s failed", live.path)
        with self._lock:
            subscribers = list(self._store_subscribers)
        _call_all(subscribers, batch)

    def _touched(self, batch: ChangeBatch) -> list[LiveSession]:
        touched = batch.changed | batch.deleted
        if not touched:
            return []
        return [
            live
            for live in self.sessions()
            if live.path in touched or any(parent in touched for parent in live.path.parents)
        ]

    def poll_once(self) -> ChangeBatch:
        """Look for changes now (no watcher needed): compare every session file's signature
        with the previous poll, dispatch that batch, bring every other open session up to
        date too, and return the batch."""
        current = self._scan()
        previous, self._snapshot = self._snapshot, current
        batch = ChangeBatch()
        if previous is not None:
            batch.changed = {p for p, sig in current.items() if previous.get(p) != sig}
            batch.deleted = {p for p in previous if p not in current}
        touched = self._touched(batch)
        self.dispatch(batch)
        for live in self.sessions():
            if live not in touched:
                live.apply_change()
        return batch

    def _scan(self) -> dict[Path, Signature]:
        found: dict[Path, Signature] = {}
        for root in self.roots:
            for folder, _dirs, files in os.walk(root):
                for name in files:
                    if name.endswith(SESSION_SUFFIX):
                        path = Path(folder, name)
                        if (sig := file_signature(path)) is not None:
                            found[path] = sig
        return found

    # -- lifetime ----------------------------------------------------------------------

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Wait until the watcher's watch is established (True at once without a watcher)."""
        return self.watcher is None or self.watcher.wait_ready(timeout)

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()

    def __enter__(self) -> LiveStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
