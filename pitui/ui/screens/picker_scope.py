"""Where the picker's "this folder" scope looks, and how to see more, in words."""

from __future__ import annotations

from pathlib import Path

from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.ui.display_text import middle_ellipsis, tilde

PATH_WIDTH = 46  # the list's width at 80 columns, less its margins: a path stays on one line
STATUS_CWD_WIDTH = 24


def looked_in(root: Path, custom_dir: Path | None, cwd: str, home: str | None) -> str:
    """The folder the scope read (Pi's `list(cwd)`: the cwd's own folder of the store, or the
    `--session-dir` folder's sessions started in the cwd)."""
    if custom_dir is None:
        return f"Looked in\n{_shown(str(project_dir(root, cwd)), home)}"
    return (
        f"Looked in\n{_shown(str(custom_dir), home)}\nfor sessions started in\n{_shown(cwd, home)}"
    )


def how_to_see_more() -> str:
    return "Start pitui with --all to list every folder,\nor --session-dir DIR to read another one."


def status_scope(cwd: str, home: str | None) -> str:
    """The status line's name of the scope: the folder, cut in the middle when long."""
    return f"this folder {middle_ellipsis(one_line(tilde(cwd, home)), STATUS_CWD_WIDTH)}"


def _shown(path: str, home: str | None) -> str:
    return middle_ellipsis(inert_path(tilde(path, home)), PATH_WIDTH)
