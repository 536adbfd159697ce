"""Waiting for something that happens in another thread or process: the one polling loop of
the tests, in a plain form and in one for a Textual app under test (a `Pilot`).

Each polls `condition()` until it holds, and fails with what was awaited (`what`, or the
source line of the condition when none is given) once `timeout` seconds have passed. The
timeout only bounds a hang: a test never asserts how long something took."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.pilot import Pilot

POLL_SECONDS = 0.02


def wait_until(
    condition: Callable[[], object],
    what: str = "",
    timeout: float = 20.0,
    seen: Callable[[], str] | None = None,
) -> None:
    """Sleep until `condition()` holds. `seen()`, if given, tells what there was instead."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(_timed_out(condition, what, timeout, seen))
        time.sleep(POLL_SECONDS)


async def wait_for(
    pilot: Pilot[Any],
    condition: Callable[[], object],
    what: str = "",
    timeout: float = 5.0,
    seen: Callable[[], str] | None = None,
) -> None:
    """Let the app run (`pilot.pause`) until `condition()` holds; `seen` as for `wait_until`."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(_timed_out(condition, what, timeout, seen))
        await pilot.pause(POLL_SECONDS)


def _timed_out(
    condition: Callable[[], object], what: str, timeout: float, seen: Callable[[], str] | None
) -> str:
    message = f"not reached in {timeout:g} s: {what or condition_text(condition)}"
    return f"{message}\nseen instead: {seen()}" if seen else message


def condition_text(condition: Callable[[], object]) -> str:
    """The condition's code as written (a lambda's whole line), for a message that names it."""
    try:
        return " ".join(inspect.getsource(condition).split())
    except (OSError, TypeError):
        return repr(condition)
