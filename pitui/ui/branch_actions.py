"""Acting on branches from the UI: fork at an entry, edit a message's context, pin and tag.

Each asks first where there is something to ask (a menu, a line of text), then runs the
write in a thread worker (`app.run_write`); `done(...)` runs on the UI afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.changes import context_edit
from pitui.core.changes.fork import ForkResult, fork_session
from pitui.core.remotes.mirror import local_fork_folder, mirror_name
from pitui.core.rows.safe_text import one_line
from pitui.core.session.entry import Entry
from pitui.core.userdata.store import UserData
from pitui.ui.app_base import PituiAppBase
from pitui.ui.display_text import tilde
from pitui.ui.marks import MarkedRow
from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathText
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.writes import WriteJob

Done = Callable[[str, str | None], None]  # (note, id of the appended entry)


class ContextEdit(Protocol):
    """A context edit of one message (`context_edit.omit`, `.restore`, a `.replace`)."""

    def __call__(self, path: Path, target_id: str, *, force: bool) -> context_edit.EditResult: ...


def ask_fork(
    app: PituiAppBase, path: Path, entry_id: str, cwd: str, opened: Callable[[Path], None]
) -> None:
    """Fork at `entry_id`, then offer: open the fork here, resume it in pi, or stay."""

    def written(result: ForkResult) -> None:
        app.session_written(result.path)

        def chosen(choice: str | None) -> None:
            if choice == "open":
                opened(result.path)
            elif choice == "pi":
                app.request_handoff(result.path, cwd)

        folder = tilde(str(result.path.parent), app.config.home)
        body: list[str | PathText] = [
            PathText(result.path.name),
            PathText(folder, "in "),
            f"{result.entries:,} entries",
        ]
        choices = [("open", "Open in pitui"), ("pi", "Resume in pi"), ("stay", "Stay here")]
        app.push_screen(ChoiceModal("Fork written", body, choices), callback=chosen)

    def confirmed(yes: bool | None) -> None:
        if yes:
            write = lambda force: fork_session(  # noqa: E731 (a new file)
                path, entry_id, local_fork_folder(path, cwd)
            )
            app.notify("Writing the fork...", timeout=3)  # a long path takes seconds
            app.run_write(WriteJob("fork", path, write, done=written))

    body: list[str | PathText] = [
        f"A new session file holding the path from the first entry to {one_line(entry_id)},",
        PathText(tilde(str(path.parent), app.config.home), "in "),
        "This session is not changed:",
        PathText(path.name),
    ]
    modal = ConfirmModal("Fork at this entry?", body, confirm_label="Write the fork")
    app.push_screen(modal, callback=confirmed)


def ask_context_edit(
    app: PituiAppBase, path: Path, target: Entry, done: Done, *, undo: bool
) -> None:
    """Menu for one message: omit it, replace it with a note, or (`undo`: it has edits) undo
    its edits (whether Pi's model can undo them is found out in the worker)."""
    remote = mirror_name(path)
    if remote is not None:  # said before the menu: pitui there edits it (`pitui context-edit`)
        app.notify(
            f"This session lives on {remote}: `pitui context-edit` on this mirrored file runs "
            "the edit there, then syncs",
            title="Cannot edit a mirrored session's context here",
            severity="warning",
            markup=False,
        )
        return
    if not context_edit.editable(target):
        app.notify(
            f"{context_edit.describe(target).capitalize()}: Pi edits only user, assistant, "
            "tool-result and custom messages",
            title="Cannot edit this entry's context",
            severity="warning",
            markup=False,
        )
        return

    def chosen(choice: str | None) -> None:
        if choice == "omit":
            _run(app, path, "Omitted from the context", done, context_edit.omit, target.id)
        elif choice == "replace":
            ask_note(app, path, target, done)
        elif choice == "undo":
            _run(app, path, "Edits undone", done, context_edit.restore, target.id)

    choices = [("omit", "Omit"), ("replace", "Replace with a note")]
    choices += [("undo", "Undo edits")] if undo else []
    choices.append(("cancel", "Cancel"))
    body = (
        f"{context_edit.describe(target)} {target.id}\n"
        "Changes what the model is sent from now on.\nThe transcript stays as it is."
    )
    app.push_screen(ChoiceModal("Edit the model's context", body, choices), callback=chosen)


def ask_note(app: PituiAppBase, path: Path, target: Entry, done: Done) -> None:
    def typed(text: str | None) -> None:
        if text:
            action = lambda p, t, force: context_edit.replace(p, t, text, force=force)  # noqa: E731
            _run(app, path, "Replaced in the context", done, action, target.id)
        elif text is not None:  # Enter on an empty note
            app.notify("An empty note: nothing was changed", severity="warning")

    hint = "Enter replaces the message's content with this note · Esc cancels"
    app.push_screen(TextInputModal("Replace with a short note", "", hint=hint), callback=typed)


def _run(
    app: PituiAppBase, path: Path, note: str, done: Done, action: ContextEdit, target_id: str
) -> None:
    def finished(result: context_edit.EditResult) -> None:
        extra = "" if result.in_context else " (it is summarized: the model does not see it)"
        done(note + extra, result.entry_id)

    write = lambda force: action(path, target_id, force=force)  # noqa: E731
    app.run_write(WriteJob("edit the context", path, write, done=finished))


# --------------------------------------------------------------------------- pins and tags


def toggle_pin(app: PituiAppBase, row: CatalogRow, done: Callable[[str], None]) -> None:
    """Pin or unpin the session of a picker row."""
    summary = row.summary
    if not isinstance(summary.id, str) or not summary.id:
        app.notify("This session has no id to pin it by", severity="warning")
        return
    pinned = not (isinstance(row, MarkedRow) and row.pinned)
    write = lambda force: UserData().set_pinned(summary.id, summary.path, pinned)  # noqa: E731
    note = "Pinned" if pinned else "Unpinned"
    app.run_write(WriteJob("pin", Path(summary.path), write, done=lambda _: done(note)))


def ask_tags(app: PituiAppBase, row: CatalogRow, done: Callable[[str], None]) -> None:
    """Edit the tags of a picker row's session (space-separated; empty clears)."""
    summary = row.summary
    if not isinstance(summary.id, str) or not summary.id:
        app.notify("This session has no id to tag it by", severity="warning")
        return

    def typed(text: str | None) -> None:
        if text is None:
            return
        tags = text.split()
        write = lambda force: UserData().set_tags(summary.id, summary.path, tags)  # noqa: E731
        note = f"Tags: {one_line(' '.join(tags))}" if tags else "Tags cleared"
        app.run_write(WriteJob("tag", Path(summary.path), write, done=lambda _: done(note)))

    current = " ".join(row.tags) if isinstance(row, MarkedRow) else ""
    hint = "Space-separated tags · Enter saves · empty clears · Esc cancels"
    app.push_screen(TextInputModal("Tags of this session", current, hint=hint), callback=typed)
