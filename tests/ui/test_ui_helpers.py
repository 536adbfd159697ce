"""The Pilot helpers themselves: `settle` waits for every worker, replaced ones included."""

from __future__ import annotations

import threading

from textual import work
from textual.app import App
from textual.worker import WorkerState
from ui_helpers import settle


class Replacing(App[None]):
    """Starts an exclusive worker, then a second that replaces (cancels) it."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.done: list[int] = []

    @work(thread=True, group="g", exclusive=True, exit_on_error=False)
    def job(self, n: int) -> None:
        self.release.wait(5)
        self.done.append(n)

    @work(thread=True, group="other", exit_on_error=False)
    def slow(self) -> None:
        self.release.wait(5)
        self.done.append(0)


async def test_settle_waits_past_a_worker_replaced_meanwhile() -> None:
    """A worker replaced while `settle` waits for it (as a watcher's message starting a newer
    exclusive worker does) ends cancelled: settle neither raises WorkerCancelled nor stops
    waiting for the other workers."""
    app = Replacing()
    async with app.run_test() as pilot:
        first = app.job(1)
        other = app.slow()
        app.set_timer(0.1, lambda: app.job(2))
        app.set_timer(0.4, app.release.set)
        await settle(pilot, rounds=1)
        assert first.state == WorkerState.CANCELLED
        assert other.state == WorkerState.SUCCESS  # waited for, not cut short
