"""A file's history across sessions: every successful write and edit that touched it (a
folder: anything under it), newest first."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from pitui.core.catalog.summary import SessionSummary
from pitui.core.errors import PituiError
from pitui.core.file_history.pi_paths import is_within
from pitui.core.file_history.session_changes import FileChange, session_changes


@dataclass
class FileHistory:
    targets: tuple[str, ...]  # the file or folder asked about (and its real path)
    changes: list[FileChange] = field(default_factory=list)  # newest first
    sessions: dict[str, SessionSummary] = field(default_factory=dict)  # by path
    unreadable: list[str] = field(default_factory=list)  # "path: why"


def targets_of(path: str) -> tuple[str, ...]:
    """The absolute forms of a path given on this machine: as written (from the current
    folder) and, when a symbolic link leads elsewhere, where it leads."""
    written = os.path.abspath(os.path.expanduser(path))
    if written.startswith("//"):  # as Pi's paths resolve (Node's path.resolve)
        written = "/" + written.lstrip("/")
    real = os.path.realpath(written)
    return (written,) if real == written else (written, real)


def touches(change: FileChange, targets: Iterable[str]) -> bool:
    return any(is_within(target, change.path) for target in targets)


def related(summaries: Iterable[SessionSummary], targets: Iterable[str]) -> list[SessionSummary]:
    """The sessions run in a folder that holds a target, or inside a target folder: those
    that could have named it by a relative path (any session may name it absolutely: the
    callers' `--all` reads every one)."""
    wanted = tuple(targets)
    return [
        summary
        for summary in summaries
        if summary.cwd
        and any(is_within(summary.cwd, t) or is_within(t, summary.cwd) for t in wanted)
    ]


def file_history(summaries: Iterable[SessionSummary], targets: tuple[str, ...]) -> FileHistory:
    """The successful writes and edits of `summaries`' sessions that touched a target,
    newest first."""
    history = FileHistory(targets)
    for summary in summaries:
        try:
            changes = session_changes(summary.path)
        except (PituiError, OSError) as error:
            history.unreadable.append(f"{summary.path}: {error}")
            continue
        kept = [c for c in changes if c.succeeded and touches(c, targets)]
        if kept:
            history.sessions[kept[0].session_path] = summary
            history.changes += kept
    history.changes.sort(key=lambda change: change.order, reverse=True)
    return history
