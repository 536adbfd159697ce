"""The Pilot helpers themselves: `settle` waits for every worker, replaced ones included."""

from __future__ import annotations

import threading

import pytest
from textual import work
from textual.app import App
from textual.worker import WorkerState
from ui_helpers import settle
from waiting import wait_for, wait_until


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


def test_a_wait_that_times_out_says_what_it_waited_for() -> None:
    """The failure names what was awaited: as given, else the condition's line of code, and
    what there was instead when the caller can tell."""
    with pytest.raises(AssertionError, match=r"not reached in 0\.01 s: the moon"):
        wait_until(lambda: False, "the moon", 0.01)
    with pytest.raises(AssertionError, match=r"lambda: 1 \+ 1 == 3"):
        wait_until(lambda: 1 + 1 == 3, timeout=0.01)
    with pytest.raises(AssertionError, match="seen instead: cheese"):
        wait_until(lambda: False, "the moon", 0.01, seen=lambda: "cheese")


async def test_a_pilot_wait_lets_the_app_run_until_it_holds() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        ticks: list[int] = []
        app.set_interval(0.01, lambda: ticks.append(1))
        await wait_for(pilot, lambda: len(ticks) >= 3, "three ticks")
        with pytest.raises(AssertionError, match=r"in 0\.05 s: a tick that never comes"):
            await wait_for(pilot, lambda: False, "a tick that never comes", 0.05)
