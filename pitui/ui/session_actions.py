"""The writes both screens offer on a session: name, label, trash.

Each asks first (a modal: pre-filled text, or a confirmation), then runs a `WriteJob` through
the app's `run_write` (thread worker; "pi may be writing" asked there). `done(note)` runs on
the UI once the write is on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pitui.core.changes.trash import trash_session
from pitui.core.changes.writer import set_label, set_name
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import PituiAppBase
from pitui.ui.display_text import tilde
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathText
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.worker_messages import SessionRemoved
from pitui.ui.writes import WriteJob

Done = Callable[[str], None]


def ask_name(app: PituiAppBase, path: Path, current: str, done: Done) -> None:
    """Name the session (an empty name clears it)."""

    def named(name: str | None) -> None:
        if name is None:
            return
        note = "Session named" if name else "Name cleared"
        write = lambda force: set_name(path, name, force=force)  # noqa: E731
        there = ("name", [name])  # a mirrored session: pitui there names it
        app.run_write(WriteJob("rename", path, write, done=lambda _: done(note), there=there))

    app.push_screen(TextInputModal("Name the session", current), callback=named)


def ask_label(
    app: PituiAppBase, path: Path, entry_id: str, current: str, done: Done, what: str
) -> None:
    """Set the label of one entry (an empty label clears it); `what`: the entry as the tree
    shows it, for the dialog to say which it labels."""

    def labelled(text: str | None) -> None:
        if text is None:
            return
        note = "Label set" if text else "Label cleared"
        write = lambda force: set_label(path, entry_id, text or None, force=force)  # noqa: E731
        there = ("label", [entry_id, *([text] if text else [])])  # pitui there, if mirrored
        app.run_write(WriteJob("label", path, write, done=lambda _: done(note), there=there))

    app.push_screen(TextInputModal(f"Label {what}", current), callback=labelled)


def ask_trash(app: PituiAppBase, path: Path, title: str) -> None:
    """Move the session to the trash once confirmed; the app then posts `SessionRemoved`."""

    def confirmed(yes: bool | None) -> None:
        if yes:
            removed = lambda _: app.post_message(SessionRemoved(path))  # noqa: E731
            trash = lambda force: trash_session(path, force=force)  # noqa: E731
            app.run_write(WriteJob("trash", path, trash, removed, there=("trash", [])))

    folder = tilde(str(path.parent), app.config.home)
    body: list[str | PathText] = [one_line(title), PathText(path.name), PathText(folder, "in ")]
    modal = ConfirmModal("Move this session to the trash?", body, confirm_label="Trash")
    app.push_screen(modal, callback=confirmed)
