"""A file's history across sessions: every successful write and edit that touched it (a
folder: anything under it), newest first."""

from __future__ import annotations

import functools
import math
import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from pitui.core.catalog.search.file_filter import file_targets
from pitui.core.catalog.summary import SessionSummary
from pitui.core.errors import PituiError
from pitui.core.file_history.session_changes import FileChange, session_changes
from pitui.core.format.pi_paths import is_within
from pitui.core.format.timestamps import to_ms
from pitui.core.userdata.moves import earlier_paths, folder_moves, in_order
from pitui.core.userdata.store import CwdMove

THIS_MACHINE = ("local", "archive")  # the stores whose sessions ran here (not a mirror's)


@dataclass
class FileHistory:
    targets: tuple[str, ...]  # the file or folder asked about (and its real path)
    changes: list[FileChange] = field(default_factory=list)  # newest first
    sessions: dict[str, SessionSummary] = field(default_factory=dict)  # by path
    unreadable: list[str] = field(default_factory=list)  # "path: why"


def targets_of(path: str) -> tuple[str, ...]:
    """The absolute forms of a path given on this machine: as written (from the current
    folder) and, when a symbolic link leads elsewhere, where it leads."""
    return file_targets(path, os.getcwd())


def touches(change: FileChange, targets: Iterable[str]) -> bool:
    return any(is_within(target, change.path) for target in targets)


def folders_of(targets: Iterable[str]) -> tuple[str, ...]:
    """The folder each target is in: a folder itself, a file (or what no longer exists) the
    folder that holds it."""
    return tuple(t if os.path.isdir(t) else posixpath.dirname(t) for t in targets)


def related(
    summary: SessionSummary, targets: Iterable[str], folders: Iterable[str] | None = None
) -> bool:
    """Whether the session was run in a folder that holds a target, or anywhere inside a
    target's folder (`folders`: `folders_of(targets)`, given once for many sessions): one
    that could name it by a relative path (from `sub/`, `../app.py`; any session may name it
    absolutely: the callers' `--all` reads every one)."""
    cwd = summary.cwd
    if not isinstance(cwd, str) or not cwd:
        return False
    targets = tuple(targets)
    within = folders_of(targets) if folders is None else folders
    return any(is_within(cwd, t) for t in targets) or any(is_within(f, cwd) for f in within)


def related_to(
    targets: tuple[str, ...], moves: dict[str, list[CwdMove]] | None = None
) -> Callable[[SessionSummary], bool]:
    """`related` to these targets (the default scope of `pitui log`, `pitui blame` and MCP's
    `file_history`), their folders found once; with `moves` (`folder_moves()`), to where
    they were before the folder moves too (a session left at the old folder wrote there)."""
    folders = folders_of(targets)
    if moves:
        targets, folders = earlier_paths(targets, moves), earlier_paths(folders, moves)
    return functools.partial(related, targets=targets, folders=folders)


def followed(change: FileChange, moves: list[CwdMove]) -> FileChange:
    """`change` with its path where the folder moves (oldest first) took it: a call made
    before a move, to a path under the old folder, wrote what is now under the new one."""
    path, made = change.path, to_ms(change.timestamp)
    for move in moves:
        if (made is None or made < move.at * 1000) and is_within(move.old, path):
            path = move.new + path[len(move.old) :]
    return change if path == change.path else replace(change, path=path)


def file_history(
    summaries: Iterable[SessionSummary],
    targets: tuple[str, ...],
    *,
    with_text: bool = True,
    moves: dict[str, list[CwdMove]] | None = None,
) -> FileHistory:
    """The successful writes and edits of `summaries`' sessions that touched a target,
    newest first; a call a fork copied into another session counted once, in the oldest
    session that holds it (the copy did not run the tool again). Without `with_text`, the
    changes keep no written text (a log needs only their counts). The calls of every
    session of this machine, moved or not, follow the folder moves `pitui move` recorded
    (`moves`: `folder_moves()`): a path under a folder before it moved is now under the
    new one; a remote's mirrored sessions wrote their own machine's folders."""
    history = FileHistory(targets)
    created: dict[str, float] = {}
    moved = in_order(folder_moves() if moves is None else moves)
    for summary in summaries:
        try:
            changes = session_changes(summary.path)
        except (PituiError, OSError) as error:
            history.unreadable.append(f"{summary.path}: {error}")
            continue
        if moved and summary.store in THIS_MACHINE:
            changes = [followed(change, moved) for change in changes]
        kept = [c for c in changes if c.succeeded and touches(c, targets)]
        if not with_text:
            for change in kept:
                change.content, change.edits = None, ()
        if kept:
            history.sessions[kept[0].session_path] = summary
            created[kept[0].session_path] = _created(summary)
            history.changes += kept
    history.changes = _without_copies(history.changes, created)
    history.changes.sort(key=lambda change: change.order, reverse=True)
    return history


def _created(summary: SessionSummary) -> float:
    return math.inf if summary.created_ms is None else float(summary.created_ms)


def _without_copies(changes: list[FileChange], created: dict[str, float]) -> list[FileChange]:
    """One change per call: a fork copies its entries (ids, call ids and all) into the new
    session, so the same call in several sessions is kept in the oldest of them."""
    first: dict[tuple[object, ...], FileChange] = {}
    unnamed = []
    for change in changes:
        if not isinstance(change.call_id, str):
            unnamed.append(change)
            continue
        key = (change.call_id, change.entry_id, change.tool, change.path)
        held = first.get(key)
        if held is None or _age(change, created) < _age(held, created):
            first[key] = change
    return [*first.values(), *unnamed]


def _age(change: FileChange, created: dict[str, float]) -> tuple[float, str]:
    return (created.get(change.session_path, math.inf), change.session_path)
