"""Worker processes that parse new session files (a cold scan) and read tool output.

Started through the "forkserver" (else "spawn") method, never forked from the (threaded)
catalog process; imported only when a scan has many new files, so a warm listing never pays
for `multiprocessing`. As with any such pool, a script that uses the catalog must keep its top
level behind `if __name__ == "__main__":` (the workers import the main module).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from pitui.core.catalog.index.index import FileRow, ToolTask, Update
from pitui.core.catalog.index.records import ToolPiece
from pitui.core.catalog.scan.filestat import Unreadable

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from pitui.core.catalog.session_info.builder import SummaryBuilder

Result = Update | Unreadable | None  # None: the file is gone
T = TypeVar("T")
R = TypeVar("R")
CHUNK_FILES = 8
# chunks of new files a worker has in hand: with 2 it ran dry while this process wrote a batch
# to the index or read a chunk itself (the worker busy 62% of the time, 86% with 8; a cold
# listing of 10,000 sessions 6.80 -> 6.39 s, medians of 4 alternated runs)
FRESH_WINDOW = 8
# chunks of tool output a worker has in hand while this process indexes the text: with 4 it
# read them in a tenth of a text step and then waited (the text and tool output of 10,000
# sessions 20.6 s; 18.0 s with 16, for 7 MB more memory)
TOOLS_WINDOW_MEANWHILE = 16


def _read_fresh(paths: list[str]) -> list[Result]:
    # deferred: the file scanner, ~30 ms off a listing that reads no file
    from pitui.core.catalog.scan.scanner import read_update

    return [read_update(path, None, _no_builder) for path in paths]


def _no_builder(path: str) -> tuple[FileRow, SummaryBuilder] | None:
    raise AssertionError(path)


class Workers:
    """The pool, started on first use; every failure falls back to reading here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._failed = False
        self._count = 1

    def read_fresh(self, fresh: list[str], batch: int) -> Iterator[tuple[list[str], list[Result]]]:
        """New files read in batches of about `batch`, on every core (call `start` first)."""
        pool = self._pool
        if pool is None:  # shut down meanwhile: read here
            for start in range(0, len(fresh), batch):
                yield fresh[start : start + batch], _read_fresh(fresh[start : start + batch])
            return
        chunks = [fresh[i : i + CHUNK_FILES] for i in range(0, len(fresh), CHUNK_FILES)]
        paths: list[str] = []
        results: list[Result] = []
        for chunk, found in self._shared(pool, _read_fresh, chunks, FRESH_WINDOW * self._count):
            paths.extend(chunk)
            results.extend(found)
            if len(paths) >= batch:
                yield paths, results
                paths, results = [], []
        if paths:
            yield paths, results

    def map_chunks(
        self, work: Callable[[list[T]], list[R]], items: list[T]
    ) -> Iterator[tuple[list[T], list[R]]]:
        """`work` over `items` in chunks of `CHUNK_FILES`, on every core (the pool started
        here if it is not up), each chunk with its results, in no particular order. `work`
        is a module-level function (the workers import it)."""
        chunks = [items[i : i + CHUNK_FILES] for i in range(0, len(items), CHUNK_FILES)]
        with self._lock:
            pool = self._start()
        if pool is None:
            for chunk in chunks:
                yield chunk, work(chunk)
            return
        yield from self._shared(pool, work, chunks, FRESH_WINDOW * self._count)

    def _shared(
        self,
        pool: ProcessPoolExecutor,
        work: Callable[[list[T]], list[R]],
        chunks: list[list[T]],
        window: int,
        meanwhile: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[list[T], list[R]]]:
        """Each chunk with `work(chunk)`, done by the workers from the front (at most `window`
        chunks at once) and by this process from the back whenever none of theirs is ready
        (and `meanwhile()`, this process's other work, a step at a time, says it is over):
        no core waits while chunks are left."""
        lo, hi = 0, len(chunks)
        inflight: list[tuple[Future[list[R]], list[T]]] = []
        while lo < hi or inflight:
            while lo < hi and len(inflight) < window:
                inflight.append((self._submit(pool, work, chunks[lo]), chunks[lo]))
                lo += 1
            ready = [item for item in inflight if item[0].done()]
            for item in ready:
                inflight.remove(item)
                yield item[1], self._result(work, *item)
            if ready:
                continue
            if meanwhile is not None and meanwhile():
                continue
            meanwhile = None
            if lo < hi:
                hi -= 1
                yield chunks[hi], work(chunks[hi])
            elif inflight:
                item = inflight.pop(0)
                yield item[1], self._result(work, *item)

    def _submit(
        self, pool: ProcessPoolExecutor, work: Callable[[list[T]], list[R]], chunk: list[T]
    ) -> Future[list[R]]:
        # deferred: concurrent.futures and logging, ~3 ms off a listing
        from concurrent.futures import Future

        try:
            return pool.submit(work, chunk)
        except Exception as error:  # a broken or shut down pool: read here
            self._failed |= _broken(error)
            failed: Future[list[R]] = Future()
            failed.set_exception(error)
            return failed

    def _result(
        self, work: Callable[[list[T]], list[R]], future: Future[list[R]], chunk: list[T]
    ) -> list[R]:
        try:
            return future.result()
        except Exception as error:  # a worker died or could not start: read here
            self._failed |= _broken(error)
            return work(chunk)

    def start(self) -> bool:
        """Start the worker processes (once; never forked from this threaded process);
        False when there are none to start (one CPU) or they cannot start."""
        with self._lock:
            return self._start() is not None

    def _start(self) -> ProcessPoolExecutor | None:
        if self._pool is None and not self._failed:
            workers = min((os.cpu_count() or 1) - 1, 3)  # this process parses too
            if workers < 1:
                return None
            # deferred: multiprocessing, ~44 ms off a listing with no pool
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            method = "forkserver" if "forkserver" in methods else "spawn"
            try:
                context = multiprocessing.get_context(method)
                with _stderr_with_a_descriptor():
                    self._pool = ProcessPoolExecutor(workers, mp_context=context)
                self._count = workers
            except Exception:
                self._failed = True
        return None if self._failed else self._pool

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # Waited for: the workers are idle by now, and a pool left to the interpreter's
            # exit can find its wake-up pipe closed ("Exception ignored ... Bad file
            # descriptor" on stderr, seen once in the suite).
            pool.shutdown(wait=True, cancel_futures=True)

    def read_tools(
        self, tasks: list[ToolTask], meanwhile: Callable[[], bool] | None = None
    ) -> Iterator[tuple[ToolTask, list[ToolPiece]]]:
        """Each task's tool text and file ops, read on every core while the workers are up
        (in no particular order). `meanwhile()`: other work of this process, a step each call
        (False: none left), done while the workers read (before reading here without them)."""
        pool = self._pool if len(tasks) >= CHUNK_FILES and not self._failed else None
        if pool is None:
            while meanwhile is not None and meanwhile():
                pass
            for task in tasks:  # one at a time: the tool text of one task held at once
                yield task, _read_tools_many([task])[0]
            return
        chunks = [tasks[i : i + CHUNK_FILES] for i in range(0, len(tasks), CHUNK_FILES)]
        # bounds the tool text held at once
        window = (4 if meanwhile is None else TOOLS_WINDOW_MEANWHILE) * self._count
        for chunk, found in self._shared(pool, _read_tools_many, chunks, window, meanwhile):
            yield from zip(chunk, found, strict=True)


@contextlib.contextmanager
def _stderr_with_a_descriptor() -> Iterator[None]:
    """The process's own stderr meanwhile, where the current one has no descriptor: the pool
    hands `sys.stderr`'s to the resource tracker it starts, and the app's (Textual captures
    it) says -1, which failed the start, so that the app read a cold store on one core
    (10,000 sessions: the whole list after 17.6 s; 10.3 s with the workers)."""
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        yield
        return
    captured, sys.stderr = sys.stderr, sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = captured


def _broken(error: BaseException) -> bool:
    # deferred: multiprocessing, ~44 ms off a listing with no pool
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(error, BrokenProcessPool)


def _read_tools_many(tasks: list[ToolTask]) -> list[list[ToolPiece]]:
    # deferred: the file scanner, ~30 ms off a listing that reads no file
    from pitui.core.catalog.scan.scanner import read_tools

    return [read_tools(task) for task in tasks]
