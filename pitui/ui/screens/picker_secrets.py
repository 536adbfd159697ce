"""The picker's marker on sessions that hold credentials: found by a thread worker over every
session the catalog knows (the listed ones first), remembered in the secrets cache so only
new and changed files are read again."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import get_current_worker

from pitui.core.catalog.search.threads import CatalogRow
from pitui.ui.failures import ReportsFailures
from pitui.ui.marks import MarkedRow

if TYPE_CHECKING:
    from pitui.core.secrets.found_cache import SecretsCache

MARK = "⚠ "
BATCH = 50  # files read between two updates of the list
DEBOUNCE = 3.0  # seconds of quiet after a change before looking again (a session being written)
SAVE_EVERY = 5.0  # seconds: what a long first pass has read is kept if pitui quits meanwhile


@dataclass(frozen=True)
class SecretRow(MarkedRow):
    """A row whose session holds credentials (`pitui secrets` lists them)."""

    def guide(self) -> str:
        return super().guide() + MARK


def with_secret_marks(rows: list[CatalogRow], paths: frozenset[str]) -> list[CatalogRow]:
    if not paths:
        return rows
    return [_marked(row) if row.summary.path in paths else row for row in rows]


def _marked(row: CatalogRow) -> CatalogRow:
    own = {field.name: getattr(row, field.name) for field in fields(row)}
    return SecretRow(**own)


@dataclass
class SecretsFound(Message):
    paths: frozenset[str]


class PickerSecrets(ReportsFailures, Screen[None]):
    """Mixed into `PickerScreen`: `secret_paths`, and the worker that fills it."""

    rows: list[Any]
    secret_paths: frozenset[str] = frozenset()
    _secrets_cache: SecretsCache | None = None
    _secrets_timer: Timer | None = None
    _secrets_lock = threading.Lock()

    def look_for_secrets(self, *, delay: float = 0.0) -> None:
        """Start a pass (after `delay` seconds without another request)."""
        if self._secrets_timer is not None:
            self._secrets_timer.stop()
        if delay:
            self._secrets_timer = self.set_timer(delay, self._find_secrets)
        else:
            self._find_secrets()

    @work(thread=True, exclusive=True, group="secrets", exit_on_error=False, description="secrets")
    def _find_secrets(self) -> None:
        catalog = self.app.catalog  # type: ignore[attr-defined]
        if catalog is None:
            return
        worker = get_current_worker()
        listed = [row.summary.path for row in self.rows]
        known = [s.path for s in catalog.sessions(cwd=None)]
        paths = list(dict.fromkeys([*listed, *known]))

        def stop() -> bool:
            return worker.is_cancelled

        with self._secrets_lock:  # a cancelled pass ends at its next file
            cache = self._cache(catalog)
            found = set(self.secret_paths) & set(paths)  # kept until their file is looked at
            posted = frozenset(self.secret_paths)
            saved = time.monotonic()
            for start in range(0, len(paths), BATCH):
                batch = paths[start : start + BATCH]
                holding = cache.kinds_of(batch, stop)
                if stop():
                    break
                if time.monotonic() - saved >= SAVE_EVERY:
                    cache.close()  # writes what changed so far
                    saved = time.monotonic()
                found.difference_update(batch)
                found.update(holding)
                if found != posted:
                    posted = frozenset(found)
                    self.post_message(SecretsFound(posted))
            cache.close()

    def _cache(self, catalog: Any) -> SecretsCache:
        """One cache for the screen's life (without an index folder it lives in memory)."""
        if self._secrets_cache is None:
            from pitui.core.secrets.found_cache import SecretsCache  # its detector: off launch

            index_path: Path | None = catalog.index.path
            self._secrets_cache = SecretsCache(index_path.parent if index_path else None)
        return self._secrets_cache

    def on_secrets_found(self, message: SecretsFound) -> None:
        if message.paths != self.secret_paths:
            self.secret_paths = message.paths
            self.run_search()  # type: ignore[attr-defined]
