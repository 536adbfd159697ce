"""pitui's archive: sessions moved out of Pi's session folder, so that Pi lists fewer.

The archive (`discovery.archive_root()`) has the sessions root's layout: a session of
`<root>/--<cwd>--/NAME.jsonl` goes to `<archive>/--<cwd>--/NAME.jsonl`, and back. A session
from a custom session dir goes to its cwd's folder in the archive, and where it came from is
kept beside it, in `NAME.jsonl.origin` (one line: the path). Moves are `move_file`'s: the
same bytes, never over a file. A pi still running when its session was archived writes its
next lines to a new, headerless file at the old path (a `continuation`): unarchiving joins
them to the session, which comes back whole.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from pitui.core.catalog.scan import discovery
from pitui.core.changes.continuation import continuation_of, place_joining
from pitui.core.changes.file_messages import shown
from pitui.core.changes.move_file import (
    TAKEN_MARK,
    check_regular_file,
    move_file,
    rename_never_over,
)
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular_file

ORIGIN_SUFFIX = ".origin"


def check_places(archive: Path, sessions: Path) -> None:
    """Refuse an archive inside a session folder (Pi would list it as a project) or holding
    one."""
    if discovery.overlaps(archive, sessions):
        raise PituiError(
            f"the archive {shown(archive)} and the session folder {shown(sessions)} overlap: "
            "set PITUI_ARCHIVE_DIR (or archive_dir in pitui's settings) to another folder"
        )


def archived_path(path: Path, root: Path, archive: Path, cwd: str) -> Path:
    """Where the archive keeps the session at `path` (`cwd`: its header's, for a session
    outside the sessions root)."""
    folder = path.parent
    if folder.parent == root:
        return archive / folder.name / path.name
    return discovery.project_dir(archive, cwd or str(folder)) / path.name


def original_path(archived: Path, root: Path, archive: Path) -> Path:
    """Where an archived session came from: the path kept beside it, else its folder in the
    sessions root."""
    if archived.parent.parent != archive:
        raise PituiError(f"{shown(archived)} is not in the archive ({shown(archive)})")
    kept = _read_origin(_origin_file(archived))
    return Path(kept) if kept else root / archived.parent.name / archived.name


def archive_session(path: Path, root: Path, archive: Path, cwd: str) -> Path:
    """Move one session into the archive; returns where it is now."""
    check_regular_file(path, "archive")
    target = archived_path(path, root, archive, cwd)
    outside = path.parent.parent != root
    if outside:
        _write_origin(_origin_file(target), path)
    try:
        move_file(path, target)
    except PituiError:
        if outside:
            _origin_file(target).unlink(missing_ok=True)
        raise
    return target


def unarchive_session(archived: Path, root: Path, archive: Path) -> Path:
    """Move one archived session back where it was (never over a file); returns that path.
    A continuation there (the lines of a pi that was still running when it was archived) is
    joined to it (`continuation.place_joining`), so the session comes back whole: the
    session is first moved beside it under a hidden name (a rename on one file system), so
    that the last step is a rename a pi appending every few milliseconds cannot beat."""
    target = original_path(archived, root, archive)
    if continuation_of(target, archived) is None:
        move_file(archived, target)
    else:
        _join_back(archived, target)
    with contextlib.suppress(OSError):
        _origin_file(archived).unlink()
    return target


def _join_back(archived: Path, target: Path) -> None:
    staged = target.with_name(f".{target.name}{TAKEN_MARK}{secrets.token_hex(4)}")
    move_file(archived, staged)
    try:
        place_joining(staged, target, lambda: rename_never_over(staged, target))
    except PituiError:
        if os.path.lexists(staged):
            with contextlib.suppress(PituiError):
                move_file(staged, archived)  # back in the archive: unarchive again later
        raise


def _origin_file(archived: Path) -> Path:
    return archived.with_name(archived.name + ORIGIN_SUFFIX)


def _write_origin(origin: Path, path: Path) -> None:
    try:
        origin.parent.mkdir(parents=True, exist_ok=True)
        with open(origin, "x", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(os.fspath(path.absolute()) + "\n")
    except FileExistsError:
        raise PituiError(f"{shown(origin)} exists: {shown(path)} was left where it is") from None
    except OSError as error:
        raise PituiError(f"cannot write {shown(origin)}: {error.strerror or error}") from None


def _read_origin(origin: Path) -> str | None:
    try:
        with open_regular_file(origin) as fh:  # a FIFO in its place is not waited on
            line = fh.readline(1 << 16)
    except (OSError, PituiError):
        return None
    text = line.decode("utf-8", errors="surrogateescape").rstrip("\n")
    return text if os.path.isabs(text) and "\0" not in text else None
