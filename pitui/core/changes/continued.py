"""Where the session a continuation continues went, and the command that joins them.

A continuation (`continuation`) has its session's file name and path: the session was
archived (the archive keeps the name), trashed (the trash keeps the path), or moved with its
project (`pitui move`: the same name in another project's folder). Looked for there only.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from pitui.core.changes.continuation import Continuation, continuation_of, headerless_parent
from pitui.core.changes.first_line import header_cwd
from pitui.core.changes.restore import list_trashed, supported
from pitui.core.errors import PituiError


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
            cwd = header_cwd(candidate) or "NEW"
            fix = f"pitui move OLD {_quoted(cwd)} (OLD: the folder it moved from) again"
            return Continued(found, "moved", fix)
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
