"""Where the session a continuation continues went, and the command that joins them.

A continuation (`continuation`) has its session's file name and path: the session was
archived (the archive keeps the name), trashed (the trash keeps the path), or moved with its
project (`pitui move`: the same name in another project's folder). Looked for there only. For a
moved session, the fix names the folder it moved from when pitui recorded the move.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from pitui.core.catalog.scan.discovery import project_folder_name
from pitui.core.changes.continuation import Continuation, continuation_of, headerless_parent
from pitui.core.changes.first_line import first_entry, header_cwd
from pitui.core.changes.relocate import moved_cwd
from pitui.core.changes.restore import list_trashed, supported
from pitui.core.errors import PituiError
from pitui.core.userdata.moves import folder_moves


@dataclass(frozen=True)
class Continued:
    """A continuation, where its session is (`store`: archive, trash, moved), and the fix."""

    continuation: Continuation
    store: str
    fix: str

    def describe(self) -> str:
        where = {"archive": "archived", "trash": "trashed", "moved": "moved"}[self.store]
        return (
            f"headerless: pi wrote these lines after its session was {where} "
            f"({self.continuation.session}); {self.fix} joins them to it"
        )


def find_continued(path: Path, root: Path, archive: Path | None) -> Continued | None:
    """What the headerless file at `path` continues, or None (not headerless, or its session
    is not found)."""
    if headerless_parent(path) is None:
        return None
    for candidate in _in_folders(archive, path.name):
        found = continuation_of(path, candidate)
        if found is not None:
            return Continued(found, "archive", f"pitui unarchive {_quoted(candidate)}")
    for item in _trashed_at(path):
        found = continuation_of(path, item)
        if found is not None:
            return Continued(found, "trash", f"pitui restore {_quoted(path)}")
    for candidate in _in_folders(root, path.name):
        if candidate != path and (found := continuation_of(path, candidate)) is not None:
            return Continued(found, "moved", _move_again(path, candidate))
    return None


def _move_again(path: Path, session: Path) -> str:
    """`pitui move OLD NEW` that joins the continuation at `path` to the moved `session`:
    NEW its cwd, OLD the folder whose session folder holds `path`, as the folder moves pitui
    recorded for the session lead back to it (else left for the user to fill in)."""
    cwd = header_cwd(session)
    old = None if cwd is None else _moved_from(path, session, cwd)
    if cwd is None or old is None:
        return f"pitui move OLD {_quoted(cwd or 'NEW')} (OLD: the folder it moved from) again"
    return f"pitui move {_quoted(old)} {_quoted(cwd)} again"


def _moved_from(path: Path, session: Path, cwd: str) -> str | None:
    """The folder the session had as its cwd while it was in `path`'s session folder, by
    the moves recorded for its id, newest first (a folder moved twice leads back twice)."""
    header = first_entry(session)
    session_id = header.get("id") if header is not None else None
    if not isinstance(session_id, str):
        return None
    at = cwd
    for move in reversed(folder_moves().get(session_id, [])):
        earlier = moved_cwd(at, move.new, move.old)
        if earlier is None:
            continue
        at = earlier
        if project_folder_name(at) == path.parent.name:
            return at
    return None


def _in_folders(top: Path | None, name: str) -> list[Path]:
    """`top/*/name`, the regular files."""
    if top is None:
        return []
    try:
        folders = sorted(os.scandir(top), key=lambda e: e.name)
    except OSError:
        return []
    found = []
    for folder in folders:
        candidate = Path(folder.path) / name
        if candidate.is_file() and not candidate.is_symlink():
            found.append(candidate)
    return found


def _trashed_at(path: Path) -> list[Path]:
    if not supported():
        return []
    try:
        items = list_trashed(near=path.parent)
    except PituiError:
        return []
    return [item.trashed for item in items if item.original == path.absolute()]


def _quoted(path: Path | str) -> str:
    return shlex.quote(str(path))
