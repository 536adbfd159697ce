"""When the user last typed or used the mouse, so that background passes that only fill a
cache wait while the user waits for an answer.

Python runs one thread at a time: the picker's first pass over every session for credentials
(about 20 ms of regular expressions a session) took the interpreter from the search and the
drawing of its answer. Measured with `benchmarks/bench_picker_search.py` at 1,000 sessions
with that pass running: a typed search's answer took up to 4.1 s (median 0.31 s), against
0.29 s (median 0.19 s) once the pass was done.
"""

from __future__ import annotations

import time
from collections.abc import Callable

QUIET_SECONDS = 1.0  # after the last key or click: the answer is drawn by then
_POLL = 0.05


class UserActivity:
    """The time of the last input event; `wait_until_quiet` for the threads that can wait."""

    def __init__(self) -> None:
        self._last = float("-inf")

    def noted(self) -> None:
        """A key was pressed or the mouse used, now."""
        self._last = time.monotonic()

    def wait_until_quiet(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Return once `QUIET_SECONDS` have passed without input (at once if they have), or
        as soon as `cancelled()` is true. Never call it on the UI thread."""
        while not cancelled():
            left = self._last + QUIET_SECONDS - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, _POLL))
