"""What `pitui list` and `pitui stats` read, as the dependencies of their cached answers (see
`answer_cache`): measured before the command reads any of it."""

from __future__ import annotations

from pitui.commands.support.answer_cache import Dependencies
from pitui.core.catalog.scan import discovery


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
