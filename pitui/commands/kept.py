"""What `pitui list` and `pitui stats` read, as dependencies of their kept answers (see
`pitui.core.answers`): measured before the command reads any of it."""

from __future__ import annotations

import argparse
import os
import sys

from pitui.core.answers import Answers, Dependencies, key_of


def kept_answers(command: str, args: argparse.Namespace) -> Answers | None:
    """The command's kept answers for these options here (None with `--no-cache`: nothing
    is given again or kept)."""
    if args.no_cache:
        return None
    from pitui.core.user_dirs import cache_folder

    return Answers(cache_folder(), key_of(command, vars(args), os.getcwd()))


def given_again(answers: Answers | None) -> bool:
    """Print the kept answer if nothing it was computed from changed (True: done)."""
    kept = answers.get() if answers is not None else None
    if kept is None:
        return False
    sys.stdout.write(kept)
    return True


def scope_dependencies(every: bool, session_dir: str | None, cwd: str) -> Dependencies:
    """The settings that may name a session dir, then the session folders in scope: the
    custom session dir, or every project folder (`every`), or the cwd's own."""
    from pitui.core.catalog.scan import discovery

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
    from pitui.core.catalog.scan import discovery

    depends.folder(root)
    for folder in discovery.list_folders(root):
        depends.sessions(folder)


def marks_dependencies(depends: Dependencies) -> None:
    """The pins-and-tags file (and its journals)."""
    from pitui.core.userdata.store import FILE_NAME, data_dir

    marks = os.path.join(data_dir(), FILE_NAME)
    for suffix in ("", "-journal", "-wal"):
        depends.file(marks + suffix)
