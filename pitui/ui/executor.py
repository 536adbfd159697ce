"""Thread workers that never keep the process alive after the app has quit.

Textual runs thread workers in the event loop's default executor. A standard
`ThreadPoolExecutor` is joined when the loop closes and again at interpreter exit, so one
worker stuck in a read (a dead network disk, a file that never ends) kept pitui running
after Ctrl+Q, and a second Ctrl+C ended it with a `threading._shutdown` traceback. Here each
task runs in a daemon thread; shutting down gives running tasks a moment to finish (a write
in progress completes) and then leaves the rest behind.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

GRACE_SECONDS = 0.5  # how long quitting waits for running tasks (a write to finish)

P = ParamSpec("P")
T = TypeVar("T")


class DaemonExecutor(ThreadPoolExecutor):
    """An executor whose tasks run in daemon threads (asyncio accepts only a
    `ThreadPoolExecutor` as the default executor; the pool itself is never used)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="pitui-unused")
        self._running: set[threading.Thread] = set()
        self._guard = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        with self._guard:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            thread = threading.Thread(
                target=self._run,
                args=(future, partial(fn, *args, **kwargs)),
                name="pitui-worker",
                daemon=True,
            )
            self._running.add(thread)
        thread.start()
        return future

    def _run(self, future: Future[T], call: Callable[[], T]) -> None:
        try:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = call()
            except BaseException as error:  # handed to whoever awaits the future
                future.set_exception(error)
            else:
                future.set_result(result)
        finally:
            with self._guard:
                self._running.discard(threading.current_thread())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._guard:
            self._closed = True
            running = list(self._running)
        if wait:
            deadline = time.monotonic() + GRACE_SECONDS
            for thread in running:
                thread.join(max(0.0, deadline - time.monotonic()))
        super().shutdown(wait=False, cancel_futures=cancel_futures)
