"""Handing a session over to `pi`: the app exits with the command to run, and where."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from pitui.core.changes.archive import unarchive_session
from pitui.core.errors import PituiError
from pitui.core.live import launch_pi
from pitui.core.remotes.config import Remote
from pitui.core.remotes.remote_run import folder_there, remote_of, remote_resume_argv
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_config import AppConfig
from pitui.ui.failures import thread_worker
from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.modals.dialog_body import PathText

if TYPE_CHECKING:
    from textual.app import App

    _App = App["Handoff | None"]  # the app this mixin is part of (Handoff: below)
else:
    _App = object


@dataclass(frozen=True)
class Handoff:
    """What the CLI runs after the app has closed."""

    argv: list[str]
    cwd: str


@dataclass
class RemoteFolderChecked(Message):
    """Whether a mirrored session's folder is on its remote (`there`: the file's path
    there)."""

    remote: Remote
    cwd: str
    there: str
    present: bool


class HandoffFlow(_App):
    """App mixin: `request_handoff(path, header_cwd, fork=...)`. (Handlers are named
    `on_...`: `@on` does not work in a mixin.)"""

    config: AppConfig

    def request_handoff(self, path: Path, header_cwd: str, *, fork: bool = False) -> None:
        try:
            mirrored = None if fork else remote_of(path)  # a broken remotes.json raises
        except PituiError as error:
            self.notify(str(error), severity="error", markup=False)
            return
        if mirrored is not None:  # a mirrored session resumes on its remote, over ssh
            self.notify(f"Resuming on {mirrored[0].name}...", timeout=3)
            self._check_folder_there(mirrored[0], header_cwd, mirrored[1])
            return
        argv = self._local_argv(path, fork)
        if argv is not None:
            self._exit_to_pi(argv, header_cwd)

    def _local_argv(self, path: Path, fork: bool) -> list[str] | None:
        """pi's command line for `path` here; None, said, when pi cannot be run."""
        try:
            pi = launch_pi.resolve_pi_command(self.config.pi_command)
            if fork:
                argv = launch_pi.fork_argv(path, pi, self.config.custom_dir)
            else:
                argv = launch_pi.resume_argv(path, pi)
            found = launch_pi.find_program(argv)
        except PituiError as error:
            self.notify(str(error), severity="error", markup=False)
            return None
        if not found:
            self.notify(
                f"{argv[0]!r} was not found: install pi, or pass --pi-command",
                title="Cannot hand off to pi",
                severity="error",
                markup=False,
            )
            return None
        return argv

    def _exit_to_pi(self, argv: list[str], header_cwd: str) -> None:
        """Hand the terminal to pi in the session's folder; a missing folder is asked about."""
        cwd = launch_pi.handoff_cwd(header_cwd)
        if cwd is not None:
            self.exit(Handoff(argv, cwd))
            return
        here = os.getcwd()

        def chosen(choice: str | None) -> None:
            if choice == "here":
                self.exit(Handoff(argv, here))

        modal = ChoiceModal(
            "The session's folder is missing",
            [
                PathText(header_cwd, "Missing: ") if header_cwd else "No cwd in the header.",
                PathText(here, "Run pi in "),
            ],
            [("here", "Run here"), ("cancel", "Cancel")],
        )
        self.push_screen(modal, callback=chosen)

    @thread_worker("handoff", "asking the remote")
    def _check_folder_there(self, remote: Remote, cwd: str, there: str) -> None:
        present = folder_there(remote, cwd)  # a remote out of reach: the failure handler says
        self.post_message(RemoteFolderChecked(remote, cwd, there, present))

    def on_remote_folder_checked(self, message: RemoteFolderChecked) -> None:
        """Resume there in its folder; when the folder is missing there, ask first (as for a
        session of this machine): pi in the home folder there, or not at all."""
        remote, there, here = message.remote, message.there, os.getcwd()
        if message.present:
            self.exit(Handoff(remote_resume_argv(remote, message.cwd, there), here))
            return

        def chosen(choice: str | None) -> None:
            if choice == "home":
                self.exit(Handoff(remote_resume_argv(remote, "~", there), here))

        modal = ChoiceModal(
            f"The session's folder is missing on {one_line(remote.name)}",
            [
                PathText(message.cwd, "Missing: ") if message.cwd else "No cwd in the header.",
                f"Run pi in the home folder on {one_line(remote.name)}?",
            ],
            [("home", "Run in the home folder"), ("cancel", "Cancel")],
        )
        self.push_screen(modal, callback=chosen)


def ask_unarchive(app: HandoffFlow, path: Path, header_cwd: str, root: Path, archive: Path) -> None:
    """Resuming an archived session: move it back to Pi's session folder first (Pi then
    lists it again), resume it where it is, or not at all."""

    def chosen(choice: str | None) -> None:
        if choice == "here":
            app.request_handoff(path, header_cwd)
        if choice != "unarchive":
            return
        try:
            back = unarchive_session(path, root, archive)
        except PituiError as error:
            app.notify(str(error), title="Not unarchived", severity="error", markup=False)
            return
        app.request_handoff(back, header_cwd)

    modal = ChoiceModal(
        "This session is archived",
        "Move it back to Pi's session folder before resuming it in pi?",
        [
            ("unarchive", "Unarchive, then resume"),
            ("here", "Resume from the archive"),
            ("cancel", "Cancel"),
        ],
    )
    app.push_screen(modal, callback=chosen)
