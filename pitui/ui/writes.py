"""Writing to session files from the UI: in a thread worker, asking before a forced write.

The core writer raises `ConcurrentWriteWarning` when pi may be writing the same file (not
after pitui's own last write: the writer remembers it), and before any write another process
holding the file open (`/proc`) is a reason too; the user is asked, and the write is retried
with `force=True` if they agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message

from pitui.core.changes.file_messages import shown
from pitui.core.changes.writer import ConcurrentWriteWarning
from pitui.core.errors import PituiError
from pitui.core.live.open_by import writers_of
from pitui.core.remotes.config import load_remotes
from pitui.core.remotes.mirror import mirrored_remote
from pitui.core.remotes.remote_run import write_there
from pitui.ui.failures import thread_worker
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.widgets.session_preview import open_in

# the jobs that change or take the session file itself (a pin or a tag is pitui's own data)
CHANGES_THE_FILE = frozenset({"rename", "label", "edit the context", "trash", "archive"})
TAKES_THE_FILE = {"trash": "Trash", "archive": "Archive"}  # what its confirmation says

if TYPE_CHECKING:
    from textual.app import App

    from pitui.ui.handoff import Handoff

    _App = App[Handoff | None]  # the app this mixin is part of
else:
    _App = object


@dataclass
class WriteJob:
    """`action(force)` runs in a thread; `done(result)` runs on the UI afterwards. `there`:
    the pitui subcommand and its arguments after the session's path that make the same
    write on a remote, for a session of a remote's mirror (None: refused there)."""

    what: str
    path: Path
    action: Callable[[bool], Any]  # its result, whatever the write returns, goes to `done`...
    done: Callable[[Any], object] | None = None  # ...or what pitui printed there (`there`)
    there: tuple[str, list[str]] | None = None


@dataclass
class WriteDone(Message):
    job: WriteJob
    result: Any


@dataclass
class WriteConflict(Message):
    job: WriteJob
    reason: str


def refuse_mirrored(path: Path) -> None:
    """A remote's mirror is never written here: its checks run where the file is."""
    said = mirrored_refusal(path)
    if said is not None:
        raise PituiError(said)


def mirrored_refusal(path: Path) -> str | None:
    """Why a write the app cannot forward is refused for a session of a remote's mirror
    (None: a session of this machine)."""
    remote = mirrored_remote(path, load_remotes())
    if remote is None:
        return None
    return (
        f"this session lives on {remote.name}: nothing was written here (the `pitui` "
        "label / name / context-edit / trash commands run it there, then sync)"
    )


# a fork writes a new file, here (`local_fork_folder`); pins and tags are pitui's own data
WRITTEN_HERE = ("fork", "pin", "tag")


def job_action(job: WriteJob) -> Callable[[bool], Any]:
    """What writes `job`: here, or for a session of a remote's mirror, pitui there (a write
    it cannot forward is refused)."""
    if job.what in WRITTEN_HERE:
        return job.action
    if job.there is None:
        refuse_mirrored(job.path)
        return job.action
    if mirrored_remote(job.path, load_remotes()) is None:
        return job.action
    subcommand, args = job.there
    return lambda force: write_there(job.path, subcommand, args, force=force)


def open_elsewhere(path: Path) -> str | None:
    """Why writing now may split the session: another process holds it open for writing
    (Linux /proc; the header and the preview say "open in pi (pid N)"), else None. One that
    only reads it (another pitui showing it) cannot write to it."""
    held = writers_of(path)
    if not held:
        return None
    return (
        f"{shown(path.name)} is open in {open_in(held)}: a change now may reach it while that "
        "process writes it"
    )


class WriteFlow(_App):
    """App mixin: `run_write(job)`. Failures other than the warning reach the app's single
    worker-failure handler. (Handlers are named `on_...`: `@on` does not work in a mixin.)"""

    def run_write(self, job: WriteJob, *, force: bool = False) -> None:
        self._write_in_thread(job, force)

    @thread_worker("write", "writing session")
    def _write_in_thread(self, job: WriteJob, force: bool) -> None:
        action = job_action(job)
        if job.what in CHANGES_THE_FILE and not force:
            reason = open_elsewhere(job.path)
            if reason is not None:
                self.post_message(WriteConflict(job, reason))
                return
        try:
            result = action(force)
        except ConcurrentWriteWarning as warning:
            self.post_message(WriteConflict(job, str(warning)))
            return
        self.post_message(WriteDone(job, result))

    def on_write_done(self, message: WriteDone) -> None:
        if message.job.done is not None:
            message.job.done(message.result)

    def on_write_conflict(self, message: WriteConflict) -> None:
        job = message.job

        def answered(force: bool | None) -> None:
            if force:
                self.run_write(job, force=True)

        verb = TAKES_THE_FILE.get(job.what, "Write")  # a trash or archive takes the file away
        modal = ConfirmModal(
            f"{job.what.capitalize()}: pi may be writing this session",
            message.reason,
            confirm_label=f"{verb} anyway",
            question=f"{verb} anyway?",
        )
        self.push_screen(modal, callback=answered)
