"""The picker's "Folder" key (Alt+M, offered when a session's folder is gone): the new
folder typed (the old one pre-filled and selected, folders completed as typed), every session
of the old folder and the folders under it counted and listed, asked once, then moved as
`pitui move OLD NEW` moves them (`core/changes/relocate.py`), in a thread worker."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual.suggester import Suggester

from pitui.core.changes.relocate import (
    Relocation,
    check_folders,
    move_all,
    moved_earlier,
    plan,
)
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line
from pitui.ui.app_base import PituiAppBase
from pitui.ui.display_text import tilde
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathText
from pitui.ui.modals.text_input import TextInputModal

Moved = Callable[[list[Path], list[Path], str], None]  # (new paths, old paths, what to say)
LISTED = 5  # sessions named in the question; the rest counted


class FolderSuggester(Suggester):
    """Completes the last part of a path typed with a folder there (read off the UI's
    loop)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return await asyncio.to_thread(complete_folder, value)


def complete_folder(value: str) -> str | None:
    """`value` with its last part completed to the first folder (by name) that starts with
    it, or None."""
    head, part = os.path.split(os.path.expanduser(value))
    if not head or not part:
        return None
    try:
        names = sorted(
            e.name for e in os.scandir(head) if e.name.startswith(part) and _is_folder(e)
        )
    except OSError:
        return None
    hidden = part.startswith(".")
    names = [n for n in names if hidden or not n.startswith(".")]
    if not names or names[0] == part:
        return None
    return value[: len(value) - len(part)] + names[0]


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def ask_move_folder(app: PituiAppBase, old: str, moved: Moved) -> None:
    """Ask for the new folder of `old`'s sessions, then which move, then move them."""

    def typed(new: str | None) -> None:
        if new:
            _plan_in_thread(app, old, os.path.expanduser(new), moved)

    modal = TextInputModal(
        "Move this folder's sessions to",
        old,
        hint="Enter: the folder it is now · → completes · Esc cancels",
        suggester=FolderSuggester(),
    )
    app.push_screen(modal, callback=typed)


def _plan_in_thread(app: PituiAppBase, old: str, new: str, moved: Moved) -> None:
    def work() -> None:
        try:
            old_abs, new_abs = check_folders(old, new)
            catalog = app.catalog
            if catalog is None:  # pitui FILE: no session folders (the key is the picker's)
                return
            sessions = [(s.path, s.cwd) for s in catalog.sessions() if isinstance(s.cwd, str)]
            moves = plan(sessions, old_abs, new_abs, catalog.root, catalog.custom_dir)
            earlier = moved_earlier(sessions, old_abs, new_abs, catalog.root, catalog.custom_dir)
        except PituiError as error:
            app.call_from_thread(_say, app, str(error), "Not moved")
            return
        app.call_from_thread(_confirm, app, Planned(moves, earlier), old_abs, new_abs, moved)

    app.run_worker(work, thread=True, group="folder-move", exit_on_error=False)


def _say(app: PituiAppBase, text: str, title: str) -> None:
    app.notify(one_line(text), title=title, severity="warning", markup=False)


@dataclass(frozen=True)
class Planned:
    """The moves, and where an earlier move of the same folders took sessions a fork may
    name (`relocate.moved_earlier`)."""

    moves: list[Relocation]
    earlier: list[tuple[Path, Path]]


def _confirm(app: PituiAppBase, planned: Planned, old: str, new: str, moved: Moved) -> None:
    moves = planned.moves
    if not moves:
        _say(app, f"no session has its cwd in {old}", "Nothing to move")
        return
    home = app.config.home
    body: list[str | PathText] = [
        PathText(tilde(old, home), "From: "),
        PathText(tilde(new, home), "To: "),
    ]
    if not os.path.isdir(new):
        body.append(f"{one_line(tilde(new, home))} is not a folder now: Pi will not find it there")
    for move in moves[:LISTED]:
        body.append(PathText(move.source.name, "  "))
    if len(moves) > LISTED:
        body.append(f"  and {len(moves) - LISTED} more")
    body.append("A session pi may be writing is left where it is. pitui move NEW OLD undoes it.")
    count = _count(len(moves))

    def answered(yes: bool | None) -> None:
        if yes:
            _move_in_thread(app, planned, new, moved)

    modal = ConfirmModal(f"Move {count} to the new folder?", body, confirm_label="Move")
    app.push_screen(modal, callback=answered)


def _move_in_thread(app: PituiAppBase, planned: Planned, new: str, moved: Moved) -> None:
    moves = planned.moves
    count = _count(len(moves))
    # said at once: a project of thousands of sessions takes seconds (525: 2.9 s)
    app.notify(f"Moving {count} to {one_line(tilde(new, app.config.home))}…", markup=False)

    def work() -> None:
        done, skipped, failed, notes = move_all(moves, earlier=planned.earlier)
        said = [f"Moved {len(done)} of {len(moves)} to {tilde(new, app.config.home)}"]
        said += [f"skipped {m.source.name}: {why}" for m, why in skipped[:2]]
        said += [f"failed {m.source.name}: {why}" for m, why in failed[:2]]
        said += notes[:1]
        note = "\n".join(one_line(line) for line in said)
        app.call_from_thread(moved, [m.target for m in done], [m.source for m in done], note)

    app.run_worker(work, thread=True, group="folder-move", exit_on_error=False)


def _count(n: int) -> str:
    return f"{n:,} session{'s' * (n != 1)}"
