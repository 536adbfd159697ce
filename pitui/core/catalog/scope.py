"""Which session files a catalog lists: its sessions root (or one custom session dir), and
the other stores laid out as a sessions root (the archive, remotes' mirrors).

The index is shared by every store and root: `holds` says which of its rows are this
catalog's, and `placed` gives a summary the store its file's place says (the index keeps
none).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pitui.core.catalog.index.index import FileRow, Index
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.catalog.summary import SessionSummary

# this machine's sessions and every remote's mirror, not the archive: the "all" scope's store
# once a remote is added (`in:local` leaves the mirrors out)
WITH_REMOTES = "local+remotes"


def in_store(kept: str, asked: str) -> bool:
    """Whether a session kept in the store `kept` ("local", "archive", a remote's name) is
    one of the store `asked` ("all": every store; `WITH_REMOTES`: every store but the
    archive)."""
    if asked == "all":
        return True
    if asked == WITH_REMOTES:
        return kept != "archive"
    return kept == asked


def all_sessions_store(remotes_added: bool, with_remotes: bool = True) -> str:
    """The store "all sessions" lists (the picker's all, `--all`, MCP's scope "all"): this
    machine's, and every remote's mirror once a remote is added, unless `with_remotes` is
    False (`--no-remotes`); a query's `in:local` chooses this machine's alone over it."""
    return WITH_REMOTES if remotes_added and with_remotes else "local"


def _parent(path: str) -> str:
    """`os.path.dirname` of an absolute path, at a third of its cost (called per file)."""
    head = path.rpartition(os.sep)[0]
    return head or os.sep


class Scope:
    """The folders a catalog lists (absolute paths; `mirrors` by their folder's path)."""

    def __init__(
        self,
        sessions_root: Path,
        custom_dir: Path | None,
        archive_dir: Path | None,
        mirrors: Iterable[Mirror],
    ) -> None:
        self.root = Path(sessions_root).absolute()
        self.custom_dir = Path(custom_dir).absolute() if custom_dir is not None else None
        self.archive_dir = Path(archive_dir).absolute() if archive_dir is not None else None
        self.mirrors = {str(m.folder.absolute()): m for m in mirrors}
        self._folder = str(self.custom_dir or self.root)
        self._archive = str(self.archive_dir) if self.archive_dir is not None else None
        folders = (self._folder, self._archive, *self.mirrors)
        self.prefixes = [os.path.join(folder, "") for folder in folders if folder]

    def holds(self, path: str) -> bool:
        """Whether a listing of this catalog's roots can hold `path` (the index is shared by
        every store: another's rows, or rows under a folder of this root, are not ours)."""
        folder = _parent(path)
        if (_parent(folder) if self.custom_dir is None else folder) == self._folder:
            return True
        return self.archived(path) or self.mirror_of(path) is not None

    def archived(self, path: str) -> bool:
        """Whether `path` is in a project folder of the archive root (when it is listed)."""
        return self._archive is not None and _parent(_parent(path)) == self._archive

    def mirror_of(self, path: str) -> Mirror | None:
        """The remote mirror whose project folders hold `path` (when it is listed)."""
        return self.mirrors.get(_parent(_parent(path))) if self.mirrors else None

    def placed(self, summary: SessionSummary) -> SessionSummary:
        """`summary` with its store said (the index keeps no store: a file's place says it)."""
        mirror = self.mirror_of(summary.path)
        if mirror is not None:
            summary.store, summary.remote_path = mirror.name, mirror.remote_path(summary.path)
        else:
            summary.store = "archive" if self.archived(summary.path) else "local"
        return summary

    def rows(self, index: Index) -> dict[str, FileRow]:
        """The index's rows of the files in scope."""
        rows: dict[str, FileRow] = {}
        for prefix in self.prefixes:
            rows.update(index.rows(prefix))
        return {p: r for p, r in rows.items() if self.holds(p)}

    def rows_and_summaries(
        self, index: Index
    ) -> tuple[dict[str, FileRow], dict[str, SessionSummary]]:
        """`rows`, and the summaries of the sessions among them, each placed (one pass)."""
        rows: dict[str, FileRow] = {}
        summaries: dict[str, SessionSummary] = {}
        for prefix in self.prefixes:
            found_rows, found_summaries = index.rows_and_summaries(prefix)
            rows.update(found_rows)
            summaries.update(found_summaries)
        rows = {p: r for p, r in rows.items() if self.holds(p)}
        return rows, {p: self.placed(s) for p, s in summaries.items() if p in rows}

    def listing(self) -> discovery.Listing:
        """The `.jsonl` files in scope now (and the folders that could not be read)."""
        if self.custom_dir is not None:
            listing = discovery.list_one(self.custom_dir)
        else:
            listing = discovery.list_all(self.root)
        others = [self.archive_dir] if self.archive_dir is not None else []
        for folder in [*others, *(m.folder for m in self.mirrors.values())]:
            found = discovery.list_all(folder)
            listing.files += found.files
            listing.unreadable += found.unreadable
        return listing
