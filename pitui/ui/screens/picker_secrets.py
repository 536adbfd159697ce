"""The picker's marker on sessions that hold credentials: found by a thread worker over every
session the catalog knows (the listed ones first), remembered in the secrets cache so only
new and changed files are read again."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.dom import DOMNode
from textual.message import Message
from textual.timer import Timer
from textual.worker import get_current_worker

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.search.threads import CatalogRow
from pitui.ui.marks import MarkedRow
from pitui.ui.user_activity import UserActivity

if TYPE_CHECKING:
    # deferred: the secret detector, ~40 ms off the first frame
    from pitui.core.secrets.found_cache import SecretsCache

MARK = "⚠ "
BATCH = 50  # files read between two updates of the list
DEBOUNCE = 3.0  # seconds of quiet after a change before looking again (a session being written)
SAVE_EVERY = 5.0  # seconds: what a long first pass has read is kept if pitui quits meanwhile
SAY_AFTER = 1.0  # seconds of a pass before the status line says it runs (a first one: 35 s)


@dataclass
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


@dataclass
class SecretsProgress(Message):
    """How far a long pass is: `done` of `total` sessions looked at (done == total: ended)."""

    done: int
    total: int


class SecretsScan:
    """Passes over the catalog's sessions in thread workers of `host` (which reports their
    failures), each posting `SecretsFound` to it whenever the set of paths found changes.
    `listed` gives the paths on screen, looked at first."""

    def __init__(
        self,
        host: DOMNode,
        catalog: Catalog,
        listed: Callable[[], list[str]],
        activity: UserActivity,
    ) -> None:
        self._host = host
        self._catalog = catalog
        self._listed = listed
        self._found: frozenset[str] = frozenset()  # as last posted
        self._cache: SecretsCache | None = None
        self._timer: Timer | None = None
        self._lock = threading.Lock()  # one pass at a time: a cancelled one ends at its next file
        self._activity = activity

    def look(self, *, delay: float = 0.0) -> None:
        """Start a pass (after `delay` seconds without another request)."""
        if self._timer is not None:
            self._timer.stop()
        if delay:
            self._timer = self._host.set_timer(delay, self._start)
        else:
            self._start()

    def _start(self) -> None:
        self._host.run_worker(
            partial(self._pass, self._listed()),
            thread=True,
            exclusive=True,
            group="secrets",
            exit_on_error=False,
            description="secrets",
        )

    def _pass(self, listed: list[str]) -> None:
        worker = get_current_worker()
        known = [s.path for s in self._catalog.sessions(cwd=None)]
        paths = list(dict.fromkeys([*listed, *known]))

        def stop() -> bool:  # checked before each file: while the user waits, this waits
            self._activity.wait_until_quiet(lambda: worker.is_cancelled)
            # and while the search index is made: on a first launch both read every session,
            # and the search's is wanted first (10,000 sessions: complete 62.6 -> 36.6 s)
            self._catalog.tools.wait_for_background(lambda: worker.is_cancelled)
            return worker.is_cancelled

        with self._lock:
            cache = self._opened_cache()
            found = set(self._found) & set(paths)  # kept until their file is looked at
            saved = started = time.monotonic()
            for start in range(0, len(paths), BATCH):
                batch = paths[start : start + BATCH]
                holding = cache.kinds_of(batch, stop)
                if stop():
                    break
                if time.monotonic() - started >= SAY_AFTER:
                    done = min(start + BATCH, len(paths))
                    self._host.post_message(SecretsProgress(done, len(paths)))
                if time.monotonic() - saved >= SAVE_EVERY:
                    cache.close()  # writes what changed so far
                    saved = time.monotonic()
                found.difference_update(batch)
                found.update(holding)
                if found != self._found:
                    self._found = frozenset(found)
                    self._host.post_message(SecretsFound(self._found))
            cache.close()
            self._host.post_message(SecretsProgress(len(paths), len(paths)))  # ended, or stopped

    def _opened_cache(self) -> SecretsCache:
        """One cache for the scan's life (without an index folder it lives in memory)."""
        if self._cache is None:
            # deferred: the secret detector, ~40 ms off the first frame
            from pitui.core.secrets.found_cache import SecretsCache

            index_path: Path | None = self._catalog.index.path
            self._cache = SecretsCache(index_path.parent if index_path else None)
        return self._cache
