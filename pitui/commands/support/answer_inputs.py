"""What `pitui list` and `pitui stats` read, as the dependencies of their cached answers (see
`answer_cache`): measured before the command reads any of it."""

from __future__ import annotations

import os

from pitui.commands.support.answer_cache import Dependencies
from pitui.core.catalog.scan import discovery
from pitui.core.remotes.config import remotes_file
from pitui.core.remotes.stores import LOCAL_STORES, mirrors_of
from pitui.core.user_dirs import config_dir
from pitui.core.userdata.store import FILE_NAME, data_dir


def scope_dependencies(every: bool, session_dir: str | None, cwd: str) -> Dependencies:
    """The settings that may name a session dir, then the session folders in scope: the
    custom session dir, or every project folder (`every`), or the cwd's own."""
    depends = Dependencies()
    depends.file(str(discovery.agent_dir() / "settings.json"))
    custom = discovery.custom_session_dir(session_dir, cwd)
    root = discovery.sessions_root()
    if custom is not None:
        depends.sessions(str(custom))
    elif every:
        every_folder_dependencies(depends, str(root))
    else:
        depends.sessions(str(discovery.project_dir(root, cwd)))
    return depends


def every_folder_dependencies(depends: Dependencies, root: str) -> None:
    """The sessions root's entries, then each project folder's sessions."""
    depends.folder(root)
    for folder in discovery.list_folders(root):
        depends.sessions(folder)


def listing_dependencies(
    session_dir: str | None, cwd: str, store: str, every: bool
) -> Dependencies:
    """What a listing of `store` reads: the catalog scans every session folder of its root,
    whatever the cwd, and of the archive when it lists it; pins and tags mark the rows; all
    sessions hold the remotes' mirrors once a remote is added."""
    depends = scope_dependencies(True, session_dir, cwd)
    marks = os.path.join(data_dir(), FILE_NAME)
    for suffix in ("", "-journal", "-wal"):  # pins and tags, and the file's journals
        depends.file(marks + suffix)
    if store in ("archive", "all"):
        depends.file(str(config_dir() / "settings.json"))  # it may name the archive
        every_folder_dependencies(depends, str(discovery.archive_root()))
    if every or store not in LOCAL_STORES:
        depends.file(str(remotes_file()))
    if store not in LOCAL_STORES:
        for mirror in mirrors_of(store, []):
            every_folder_dependencies(depends, str(mirror.folder))
    return depends


def held_folders(session_dir: str | None, cwd: str, store: str) -> list[str]:
    """The folders of a listing of `store` whose sessions' holders `openBy` says (the kept
    answer checks them)."""
    root = discovery.custom_session_dir(session_dir, cwd) or discovery.sessions_root()
    folders = [str(root)]
    if store in ("archive", "all"):
        folders.append(str(discovery.archive_root()))
    if store not in LOCAL_STORES:
        folders += [str(mirror.folder) for mirror in mirrors_of(store, [])]
    return folders
