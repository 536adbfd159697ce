"""The catalog's second pass: the trigram index of conversation text, and tool output's.

Tool output is most of the bytes and only pitui's last search tier reads it, so it is indexed
after the listing, in a background thread when the caller is interactive (`pending` says so
meanwhile). The worker processes read it while this process indexes the text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from pitui.core.catalog.index.index import Index, ToolTask
from pitui.core.catalog.index.records import ToolPiece
from pitui.core.catalog.scan.workers import Workers

TOOL_BATCH_BYTES = 4 * 1024 * 1024  # tool text per transaction (keeps the lock short)
PARALLEL_TOOLS = 100  # sessions before reading their tool output in worker processes pays
Progress = Callable[[int, int], None]


def _in_one(
    progress: Progress | None, text_bytes: int, tasks: list[ToolTask], already: int
) -> tuple[Progress | None, Progress | None]:
    """The progress of the text index and of the tool output's (made together), as one count
    of bytes, `already` in the index counted done (a pass resumed after a quit does not say
    0% again)."""
    if progress is None:
        return None, None
    total = already + text_bytes + sum(t.end - t.start for t in tasks)
    done = {"text": 0, "tools": 0}

    def counted(part: str) -> Progress:
        def count(part_done: int, _: int) -> None:
            done[part] = part_done
            progress(already + done["text"] + done["tools"], total)

        return count

    return counted("text"), counted("tools")


class ToolPass:
    """Indexing tool output (and conversation text as trigrams), here or in the background
    (`thread`, one at a time; `error`: what ended it early). Any thread may call it."""

    def __init__(self, index: Index, workers: Workers) -> None:
        self.index = index
        self._workers = workers
        self._lock = threading.Lock()  # thread and _again
        self.thread: threading.Thread | None = None
        self._again = False  # go round once more: files changed meanwhile
        self._stop = threading.Event()
        self.error: BaseException | None = None

    @property
    def pending(self) -> bool:
        """Whether some session's tool output is not searchable yet."""
        with self._lock:
            thread = self.thread
        return (thread is not None and thread.is_alive()) or bool(self.index.tool_tasks_left())

    def index_all(self, progress: Progress | None = None) -> None:
        """Index all tool output not indexed yet, here (waits for a background pass first)."""
        self._join()
        self.index.collect_tool_garbage()
        self._texts_and_tools(self.index.tool_tasks(), None, progress, self._stop)
        self._workers.shutdown()

    def index_of(self, paths: set[str], progress: Progress | None = None) -> None:
        """Index the tool output of these sessions not indexed yet, here (a search's);
        `progress(done, total)` counts sessions (in bytes read, as a share of them)."""
        tasks = self.index.tool_tasks(paths)
        in_sessions = None
        if progress is not None and tasks:

            def in_sessions(done: int, total: int) -> None:
                progress(len(tasks) * done // total if total else len(tasks), len(tasks))

        self._index(tasks, in_sessions, threading.Event())

    def start(self, progress: Progress | None) -> None:
        """Index what is left in a background thread (or have the running one go round once
        more); `progress(done, total)` counts bytes of conversation text and tool output."""
        with self._lock:
            thread = self.thread
            if thread is not None and thread.is_alive():
                self._again = True
                return
            left = self.index.texts_left() or self.index.tool_tasks_left()
            start = not self._stop.is_set() and left
            if start:
                self._again = False
                self.thread = threading.Thread(
                    target=self._run,
                    args=(progress,),
                    name="pitui-catalog-tools",
                    daemon=True,
                )
                self.thread.start()
        if not start:
            self._workers.shutdown()

    def index_here_if_small(self, tasks: list[ToolTask]) -> None:
        """Index these tasks before returning, unless that is a long job (then it is left
        to the background pass)."""
        if sum(t.end - t.start for t in tasks) <= TOOL_BATCH_BYTES:
            self._index(tasks, None, threading.Event())

    def wait_for_background(self, given_up: Callable[[], bool], every: float = 0.25) -> None:
        """Wait for a background pass to end, or for `given_up()` (asked every `every`
        seconds)."""
        while not given_up():
            with self._lock:
                thread = self.thread
            if thread is None or not thread.is_alive() or thread is threading.current_thread():
                return
            thread.join(every)

    def stop(self) -> None:
        """Stop a background pass (a later catalog resumes it) and wait for it."""
        self._stop.set()
        self._join()

    def _join(self) -> None:
        with self._lock:
            thread = self.thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self, progress: Progress | None) -> None:
        try:
            self.index.collect_tool_garbage()
            while not self._stop.is_set():
                tasks = self.index.tool_tasks()
                pending = self.index.texts_pending_bytes()
                already = self.index.search_index_done_bytes() if progress else 0
                text, tools = _in_one(progress, pending, tasks, already)
                self._texts_and_tools(tasks, text, tools, self._stop)
                with self._lock:
                    if not self._again:
                        self.thread = None  # over: a search asked now is not told "pending"
                        break
                    self._again = False
        except Exception as error:  # e.g. the catalog was closed meanwhile
            self.error = error
        finally:
            with self._lock:
                if self.thread is threading.current_thread():
                    self.thread = None  # ended early: a `start` starts a new pass
            self._workers.shutdown()
            if progress is not None:
                progress(1, 1)  # over, whatever ended it

    def _texts_and_tools(
        self,
        tasks: list[ToolTask],
        text_progress: Progress | None,
        tools_progress: Progress | None,
        stop: threading.Event,
    ) -> None:
        """The conversation text's index, then the tool output's; while the workers read the
        tool output, this thread indexes the text between writing what they read (the index
        has one writer, and reading the tool output was a fifth of this thread's time: at
        10,000 sessions both took 22 s, this way 18 s)."""
        steps = self.index.text_steps(stop, text_progress)

        def more_text() -> bool:
            return next(steps, None) is not None

        self._index(tasks, tools_progress, stop, meanwhile=more_text, after_searches=True)
        for _ in steps:  # what is left of the text (or all of it: no tool output to read)
            pass

    def _index(
        self,
        tasks: list[ToolTask],
        progress: Progress | None,
        stop: threading.Event,
        meanwhile: Callable[[], bool] | None = None,
        after_searches: bool = False,
    ) -> None:
        """Index the tool output of `tasks`; `meanwhile` as `Workers.read_tools` takes it;
        `after_searches`: each write waits for the searches under way (a background pass;
        never a search's own, which would wait for itself)."""
        total = sum(t.end - t.start for t in tasks)
        done = 0
        if len(tasks) >= PARALLEL_TOOLS:  # also when no first scan started the workers
            self._workers.start()
        if progress:
            progress(0, total)
        batch: list[ToolPiece] = []
        size = 0

        def write() -> None:
            if after_searches:
                self.index.after_searches()
            self.index.add_tools(batch)

        for task, pieces in self._workers.read_tools(tasks, meanwhile):
            if stop.is_set():
                return
            batch += pieces
            size += sum(len(text) for _, text, _ in pieces)
            done += task.end - task.start
            if size >= TOOL_BATCH_BYTES:
                write()
                batch, size = [], 0
                if progress:
                    progress(done, total)
        if batch:
            write()
        self.index.give_back_free_pages()
        if progress:
            progress(total, total)
