"""Which session files a usage question covers: the scope of `pitui list` (Pi's `list(cwd)`
or `listAll()`, in the sessions root or a custom session dir)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pitui.core.catalog.scan import discovery
from pitui.core.changes.first_line import header_cwd


@dataclass
class Scope:
    """The candidate files, and which header cwds count (a custom dir shared by projects)."""

    files: list[str]
    accepts: Callable[[str], bool]
    unreadable: list[str] = field(default_factory=list)
    narrowed: bool = False  # a shared session dir: only the sessions started in this folder

    def started_here(self) -> tuple[list[str], int]:
        """The files whose header's cwd the scope accepts (a file without one is kept), and
        how many it left out; reads each file's first line only when narrowed."""
        if not self.narrowed:
            return self.files, 0
        kept = [p for p in self.files if _accepted(self.accepts, header_cwd(Path(p)))]
        return kept, len(self.files) - len(kept)


def scope_of(every: bool, session_dir: str | None, cwd: str | None = None) -> Scope:
    """`--all` / `--session-dir DIR` / the current folder, as `pitui list` reads them."""
    cwd = cwd or os.getcwd()
    root = discovery.sessions_root()
    custom = discovery.custom_session_dir(session_dir, cwd)
    if custom is not None:
        listing = discovery.list_one(custom)
        if every or custom == discovery.project_dir(root, cwd):
            return Scope(listing.files, _any, listing.unreadable)
        here = Scope(listing.files, lambda c: discovery.same_cwd(c, cwd), listing.unreadable)
        here.narrowed = True
        return here
    if every:
        listing = discovery.list_all(root)
    else:
        listing = discovery.list_one(discovery.project_dir(root, cwd))
    return Scope(listing.files, _any, listing.unreadable)


def scope_of_paths(paths: list[str | Path]) -> Scope:
    return Scope([os.path.abspath(p) for p in paths], _any)


def _any(_cwd: str) -> bool:
    return True


def _accepted(accepts: Callable[[str], bool], cwd: str | None) -> bool:
    return cwd is None or accepts(cwd)
