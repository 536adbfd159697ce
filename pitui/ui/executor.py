"""Thread workers that never keep the process alive after the app has quit.

Textual runs thread workers in the event loop's default executor. A standard
`ThreadPoolExecutor` is joined when the loop closes and again at interpreter exit, so one
worker stuck in a read (a dead network disk, a file that never ends) kept pitui running
after Ctrl+Q, and a second Ctrl+C ended it with a `threading._shutdown` traceback. Here each
task runs in a daemon thread; shutting down gives running tasks a moment to finish (a write
in progress completes) and then leaves the rest behind.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

GRACE_SECONDS = 0.5  # how long quitting waits for running tasks (a write to finish)
IDLE_SECONDS = 30.0  # a thread with no task for this long ends
_Task = tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonExecutor(ThreadPoolExecutor):
    """An executor whose tasks run in daemon threads (asyncio accepts only a
    `ThreadPoolExecutor` as the default executor; the pool itself is never used).

    A task is taken by an idle thread, else by a new one: a task stuck never delays another,
    and the reads of a session being written (several a second) reuse a thread or two
    rather than starting one each."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="pitui-unused")
        self._tasks: queue.SimpleQueue[_Task | None] = queue.SimpleQueue()
        self._idle = 0  # threads waiting for a task, not yet handed one
        self._pending: set[Future[Any]] = set()  # submitted, not yet done
        self._guard = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._guard:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._pending.add(future)
            self._tasks.put((future, fn, args, kwargs))
            if self._idle:
                self._idle -= 1  # handed to a waiting thread
                return future
            thread = threading.Thread(target=self._serve, name="pitui-worker", daemon=True)
        thread.start()
        return future

    def _serve(self) -> None:
        while True:
            try:
                task = self._tasks.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                with self._guard:
                    if not self._tasks.empty():
                        continue  # handed one just as the wait ended
                    self._idle -= 1
                    return
            if task is None:  # shut down
                return
            if not self._run(*task):
                return

    def _run(self, future: Future[Any], fn: Callable[..., Any], args: Any, kwargs: Any) -> bool:
        """Run one task; False once the executor is shut down (the thread then ends). The
        thread is idle again before the task's caller hears the result, which then can
        hand it the next task."""
        outcome: tuple[bool, Any] | None = None
        if future.set_running_or_notify_cancel():
            try:
                outcome = (True, fn(*args, **kwargs))
            except BaseException as error:  # handed to whoever awaits the future
                outcome = (False, error)
        with self._guard:
            serving = not self._closed
            self._idle += serving
        if outcome is not None and outcome[0]:
            future.set_result(outcome[1])
        elif outcome is not None:
            future.set_exception(outcome[1])
        with self._guard:
            self._pending.discard(future)
        return serving

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._guard:
            self._closed = True
            pending = list(self._pending)
            for _ in range(self._idle):
                self._tasks.put(None)
            self._idle = 0
        if wait:
            futures.wait(pending, GRACE_SECONDS)
        super().shutdown(wait=False, cancel_futures=cancel_futures)
