"""A long command's progress on stderr: a Rich progress bar while stderr is a terminal and
the output is not `--json`; nothing otherwise (a pipe, a file, a script reading JSON).

The bar appears only once the work has gone on for `DELAY` seconds (a warm run says nothing)
and is removed when the work ends, before the command prints its answer.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress as Bar
    from rich.progress import TaskID

Progress = Callable[[int, int], None]
DELAY = 0.3  # seconds of work before a bar is worth showing


@contextlib.contextmanager
def progress_on_stderr(
    what: str, *, quiet: bool = False, percent: bool = False
) -> Iterator[Progress | None]:
    """`progress(done, total)` to hand to the work (None: nothing to show), for `what`
    (e.g. "indexing sessions"); the bar is gone when the block ends. `quiet` (`--json`, or
    the answer streams to this terminal meanwhile): no bar; `percent`: show a percentage."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    bar = _LazyBar(what, percent)
    try:
        yield bar.update
    finally:
        bar.close()


class _LazyBar:
    """A Rich bar started on the first update after `DELAY` with work left."""

    def __init__(self, what: str, percent: bool) -> None:
        self.what, self.percent = what, percent
        self.started = time.monotonic()
        self._bar: Bar | None = None
        self._task: TaskID | None = None

    def update(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total or time.monotonic() - self.started < DELAY:
                return
            self._bar, self._task = self._start()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, total=total)

    def _start(self) -> tuple[Bar, TaskID]:
        # deferred: Rich, ~37 ms off a command with no progress bar
        from rich.console import Console
        from rich.progress import (  # deferred: Rich, ~37 ms off a command with no progress bar
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
        )

        bar = Progress(
            TextColumn(self.what, markup=False),
            BarColumn(),
            TaskProgressColumn() if self.percent else MofNCompleteColumn(),
            console=Console(file=sys.stderr),
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        task = bar.add_task(self.what, total=None)
        bar.start()
        return bar, task

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
