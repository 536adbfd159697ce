"""The read-only mirrors of remotes' session folders, in pitui's cache folder:
`<cache>/remotes/NAME/sessions/` holds the remote's `--<cwd>--/*.jsonl` as its session folder
does, and `<cache>/remotes/NAME/synced` is touched by each sync that succeeded."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pitui.core.catalog.scan import discovery
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular_file
from pitui.core.remotes.config import Remote, load_remotes
from pitui.core.user_dirs import cache_dir

SYNCED_STAMP = "synced"
FAILED_NOTE = "failed"  # what the last sync said, when it failed
NOTE_LIMIT = 64 * 1024  # of it read: its start (an error message)


def mirrors_root() -> Path:
    return cache_dir() / "remotes"


def mirror_dir(name: str) -> Path:
    """Where the remote `name`'s sessions are mirrored (its session folder's layout)."""
    return mirrors_root() / name / "sessions"


def synced_at(name: str) -> float | None:
    """When the last sync of `name` that succeeded ended (None: never)."""
    try:
        return (mirrors_root() / name / SYNCED_STAMP).stat().st_mtime
    except OSError:
        return None


def mark_synced(name: str, error: str | None = None) -> None:
    """Note how a sync ended: the time of a success, or why the last one failed."""
    folder = mirrors_root() / name
    folder.mkdir(parents=True, exist_ok=True)
    if error is not None:
        (folder / FAILED_NOTE).write_text(error + "\n", encoding="utf-8")
        return
    (folder / FAILED_NOTE).unlink(missing_ok=True)
    (folder / SYNCED_STAMP).touch()
    os.utime(folder / SYNCED_STAMP)


def last_failure(name: str) -> str | None:
    """Why the last sync of `name` failed (None: it did not)."""
    try:
        with open_regular_file(mirrors_root() / name / FAILED_NOTE) as fh:  # never a FIFO
            note = fh.read(NOTE_LIMIT)
    except (OSError, PituiError):
        return None
    return note.decode("utf-8", errors="replace").strip()


def age_text(name: str, now: float | None = None) -> str:
    """How old the mirror is, in words ("never synced", "synced 5 min ago")."""
    when = synced_at(name)
    if when is None:
        return "never synced"
    seconds = max(0, int((time.time() if now is None else now) - when))
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"synced {seconds // size} {unit} ago"
    return f"synced {seconds} s ago"


def mirror_name(path: str | os.PathLike[str]) -> str | None:
    """The name of the remote whose mirror folder holds `path`, from the path alone (no file
    is read: the UI asks it before opening a dialog); None: not in a mirror."""
    absolute = Path(os.path.abspath(path))
    root = mirrors_root().absolute()
    if root not in absolute.parents:
        return None
    parts = absolute.relative_to(root).parts
    return parts[0] if len(parts) > 2 and parts[1] == "sessions" else None


def mirrored_remote(path: str | os.PathLike[str], remotes: dict[str, Remote]) -> Remote | None:
    """The remote whose mirror holds `path` (None: not in a mirror)."""
    absolute = Path(os.path.abspath(path))
    root = mirrors_root().absolute()
    if root not in absolute.parents:
        return None
    name = absolute.relative_to(root).parts[0]
    remote = remotes.get(name)
    if remote is None or mirror_dir(name).absolute() not in absolute.parents:
        return None
    return remote


def local_fork_folder(path: Path, cwd: str) -> Path | None:
    """Where a fork of a remote's mirrored session goes: this machine's session folder of
    its cwd, not the mirror (a sync would remove it); None for a session of this machine."""
    if mirrored_remote(path, load_remotes()) is None:
        return None
    return discovery.project_dir(discovery.sessions_root(), cwd)
