"""The picker and the remotes' mirrors: a sync on a key, and every `sync_every` seconds while
the list shows a remote's sessions; in a thread worker, whose results come back as a message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from textual.dom import DOMNode

from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.remotes.config import load_remotes
from pitui.core.remotes.sync import SyncResult, sync_remote
from pitui.core.rows.safe_text import one_line
from pitui.ui.worker_messages import RemotesSynced, SyncProgress

LOCAL_STORES = ("local", "archive")


def shows_remote(rows: Sequence[CatalogRow]) -> bool:
    """The list holds a session of a remote's mirror."""
    return any(row.summary.store not in LOCAL_STORES for row in rows)


def start_sync(screen: DOMNode) -> None:
    """Sync every remote in a thread worker (one at a time: a sync running is not doubled)."""
    screen.run_worker(
        partial(_sync_all, screen),
        thread=True,
        exclusive=True,
        group="sync",
        exit_on_error=False,
        description="syncing the remotes",
    )


def _sync_all(screen: DOMNode) -> None:
    results: list[SyncResult] = []
    try:
        for remote in load_remotes().values():
            results.append(sync_remote(remote, _reporter(screen, remote.name)))
    finally:  # also after a failure (reported by the worker's handler): the status is cleared
        screen.post_message(RemotesSynced(results))


def _reporter(screen: DOMNode, name: str) -> Callable[[int, int], None]:
    """rsync's progress as `SyncProgress` messages, one a percent (it is said every 0.25 s)."""
    last = -1

    def report(done: int, total: int) -> None:
        nonlocal last
        percent = done * 100 // max(total, 1)
        if percent != last:
            last = percent
            screen.post_message(SyncProgress(name, percent))

    return report


def sync_notices(results: list[SyncResult]) -> list[str]:
    """A line for each remote that could not be synced (its last mirror stays listed), and
    what a sync that worked has to say (files that vanished there, a mirror grown large)."""
    notices: list[str] = []
    for r in results:
        if r.error:
            notices.append(f"{r.name}: {one_line(r.error)} (its last mirror stays listed)")
            continue
        notices += [f"{r.name}: {one_line(said)}" for said in (r.note, r.warning) if said]
    return notices
