"""The core manager: the catalog of the session roots and the watcher over them, together.

`SessionHub` is what the UI stands on. Watcher batches (from its thread) bring the catalog
up to date for just the files that changed, and reach subscribers as `CatalogChanged`;
sessions opened through the hub receive their appended entries as `LiveSession` events.
Pure Python: no Textual import. Subscribers are called on the watcher thread and must be
quick (a UI posts a message to its own thread).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan.scan_pass import ScanStopped
from pitui.core.live.live import LiveSession, LiveStore
from pitui.core.live.watcher import ChangeBatch
from pitui.core.session.reader import Progress

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CatalogChanged:
    """The catalog now reflects these files: `changed` (new, grown, replaced) and
    `removed` (deleted or moved away). `notice` carries a watcher notice, e.g. polling."""

    changed: frozenset[Path] = field(default_factory=frozenset)
    removed: frozenset[Path] = field(default_factory=frozenset)
    notice: str | None = None


HubCallback = Callable[[CatalogChanged], None]


def _session_files(paths: set[Path]) -> list[Path]:
    """The session files among `paths`; a new folder stands for the files already in it
    (they may have been written before the watcher saw the folder)."""
    files: list[Path] = []
    for path in paths:
        if path.suffix == ".jsonl":
            files.append(path)
        elif path.is_dir():
            files.extend(p for p in path.rglob("*.jsonl") if p.is_file())
    return files


class SessionHub:
    """One catalog, one live store, and the wiring between them."""

    def __init__(self, catalog: Catalog | None, live: LiveStore) -> None:
        self.catalog = catalog
        self.live = live
        self._subscribers: list[HubCallback] = []
        self._lock = threading.Lock()
        self.notice: str | None = None  # the latest watcher notice, replayed to new subscribers
        self._unsubscribe_store = live.subscribe_store(self._on_batch)

    def subscribe(self, callback: HubCallback) -> Callable[[], None]:
        """Call `callback(event)` for every catalog change (on the watcher thread)."""
        with self._lock:
            self._subscribers.append(callback)
            notice = self.notice
        if notice:
            callback(CatalogChanged(notice=notice))

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def open(self, path: str | os.PathLike[str], progress: Progress | None = None) -> LiveSession:
        """A session kept up to date from the file (raises `NotASession`);
        `progress(done, total)` hears how much of it is read."""
        return self.live.open(path, progress)

    def refresh(self, paths: Iterable[Path]) -> None:
        """Files this process just wrote: index them now, without waiting for the watcher."""
        self._on_batch(ChangeBatch(changed=set(paths)))

    def forget(self, path: Path) -> None:
        """A session this process removed (e.g. trashed): drop it now, not at the next batch."""
        self.live.close_session(path)
        if self.catalog is not None:
            self.catalog.forget(path)
        self._publish(CatalogChanged(removed=frozenset({path})))

    def _on_batch(self, batch: ChangeBatch) -> None:
        """Watcher thread: index what changed, then tell the subscribers."""
        changed = frozenset(_session_files(batch.changed))
        removed = frozenset(batch.deleted)
        if (changed or removed) and self.catalog is not None:
            try:
                self.catalog.update_paths(sorted(changed | removed))
            except ScanStopped:  # closing
                return
            except Exception:  # the watcher must survive a failing update; the next batch retries
                log.exception("catalog update failed")
        if changed or removed or batch.notice:
            self._publish(CatalogChanged(changed, removed, batch.notice))

    def _publish(self, event: CatalogChanged) -> None:
        with self._lock:
            self.notice = event.notice or self.notice
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(event)
            except Exception:
                log.exception("hub subscriber failed")

    def close(self) -> None:
        self._unsubscribe_store()
        if self.catalog is not None:
            # first: the watcher, stopped next, may be waiting for a scan to index a change
            # (quitting during a first scan while pi wrote a session took 6-7 s)
            self.catalog.stop_scans()
        self.live.close()
        if self.catalog is not None:
            self.catalog.close()
