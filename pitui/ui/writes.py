"""Writing to session files from the UI: in a thread worker, asking before a forced write.

The core writer raises `ConcurrentWriteWarning` when pi may be writing the same file (not
after pitui's own last write: the writer remembers it); the user is asked, and the write is
retried with `force=True` if they agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import work
from textual.message import Message

from pitui.core.changes.writer import ConcurrentWriteWarning
from pitui.ui.modals.confirm import ConfirmModal


@dataclass
class WriteJob:
    """`action(force)` runs in a thread; `done(result)` runs on the UI afterwards."""

    what: str
    path: Path
    action: Callable[[bool], Any]
    done: Callable[[Any], None] | None = None


@dataclass
class WriteDone(Message):
    job: WriteJob
    result: Any


@dataclass
class WriteConflict(Message):
    job: WriteJob
    reason: str


class WriteFlow:
    """App mixin: `run_write(job)`. Failures other than the warning reach the app's single
    worker-failure handler. (Handlers are named `on_...`: `@on` does not work in a mixin.)"""

    def run_write(self, job: WriteJob, *, force: bool = False) -> None:
        self._write_in_thread(job, force)

    @work(thread=True, group="write", exit_on_error=False, description="writing session")
    def _write_in_thread(self, job: WriteJob, force: bool) -> None:
        try:
            result = job.action(force)
        except ConcurrentWriteWarning as warning:
            self.post_message(WriteConflict(job, str(warning)))  # type: ignore[attr-defined]
            return
        self.post_message(WriteDone(job, result))  # type: ignore[attr-defined]

    def on_write_done(self, message: WriteDone) -> None:
        if message.job.done is not None:
            message.job.done(message.result)

    def on_write_conflict(self, message: WriteConflict) -> None:
        job = message.job

        def answered(force: bool | None) -> None:
            if force:
                self.run_write(job, force=True)

        modal = ConfirmModal(
            f"{job.what.capitalize()}: pi may be writing this session",
            message.reason,
            confirm_label="Write anyway",
            question="Write anyway?",
        )
        self.push_screen(modal, callback=answered)  # type: ignore[attr-defined]
