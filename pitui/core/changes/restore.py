"""Bringing back sessions from the freedesktop trash (where `trash_session` puts them).

The trash keeps each file under `Trash/files/NAME` and where it was in
`Trash/info/NAME.trashinfo` (`Path=`, percent-encoded, absolute or relative to the trash's
top folder). A trashed Pi session (a `.jsonl` whose first line is a session header) is
restored by renaming it back to that path: never over an existing file, never a copy, so the
bytes are the ones that were trashed (and, when a pi still running wrote at that path after
the trash took it, those lines after them: `continuation`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes

import orjson

from pitui.core.changes import freedesktop_trash
from pitui.core.changes.continuation import continuation_of, place_joining
from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.regular_file import NotRegularFile, file_kind, open_regular_file, read_small

UNSUPPORTED = (
    "restore reads the freedesktop trash (Linux and BSD); on {platform}, restore "
    "sessions from the system's own Trash"
)

# a `.trashinfo` is two or three short lines; its Path, percent-encoded, is at most three
# times PATH_MAX (4096) bytes: anything larger is not one (a link to /dev/zero never ends)
INFO_LIMIT = 16 * 1024


@dataclass(frozen=True)
class Trashed:
    """A session in the trash: where it is, where it was, when, its session id."""

    trashed: Path
    info: Path
    original: Path
    deleted: str
    session_id: str
    size: int


def supported() -> bool:
    return sys.platform not in ("darwin", "win32", "cygwin")


def home_trash() -> Path:
    return Path(os.fsdecode(freedesktop_trash.home_trash()))


def trash_folders(near: Path | None = None) -> list[tuple[Path, Path]]:
    """(trash folder, its top folder) pairs: the home trash, and the trashes of the volume
    holding `near` (where the trash puts files from another device than home)."""
    home = home_trash()
    folders = [(home, home.parent)]
    if near is not None:
        top = _mount_point(near)
        uid = os.getuid() if hasattr(os, "getuid") else 0
        for trash in (top / ".Trash" / str(uid), top / f".Trash-{uid}"):
            if trash != home and trash.is_dir():
                folders.append((trash, top))
    return folders


def _mount_point(path: Path) -> Path:
    path = path.absolute()
    while not os.path.ismount(path) and path.parent != path:
        path = path.parent
    return path


def list_trashed(near: Path | None = None, skipped: list[str] | None = None) -> list[Trashed]:
    """The Pi sessions in the trash, newest deletion first. `skipped` gets a one-line
    reason for each `.trashinfo` of a session that is not a regular file of at most
    `INFO_LIMIT` bytes (the trash is every program's: a FIFO there is never waited on, a
    link to a device never read)."""
    if not supported():
        raise PituiError(UNSUPPORTED.format(platform=sys.platform))
    found: list[Trashed] = []
    for trash, top in trash_folders(near):
        try:
            names = sorted(os.listdir(trash / "info"))
        except OSError:
            continue
        for name in names:
            if name.endswith(".jsonl.trashinfo"):
                item = _read_item(trash, top, name, skipped if skipped is not None else [])
                if item is not None:
                    found.append(item)
    found.sort(key=lambda t: (t.deleted, str(t.original)), reverse=True)
    return found


def _read_item(trash: Path, top: Path, info_name: str, skipped: list[str]) -> Trashed | None:
    info = trash / "info" / info_name
    trashed = trash / "files" / info_name[: -len(".trashinfo")]
    try:
        text = read_small(info, INFO_LIMIT).decode("utf-8", errors="replace")
    except NotRegularFile as error:
        skipped.append(f"skipped {shown(info)}: not a regular file ({file_kind(error.mode)})")
        return None
    except OSError as error:
        if error.errno == errno.EFBIG:
            skipped.append(f"skipped {shown(info)}: {error.strerror}, not a trash entry")
        return None
    try:
        st = os.lstat(trashed)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    fields = _info_fields(text)
    if "Path" not in fields:
        return None
    original = Path(os.fsdecode(unquote_to_bytes(fields["Path"])))  # any bytes of a name
    if not original.is_absolute():
        original = top / original
    if original.suffix != ".jsonl":
        return None  # pitui restores sessions only
    session_id = _session_id(trashed)
    if session_id is None:
        return None
    return Trashed(trashed, info, original, fields.get("DeletionDate", ""), session_id, st.st_size)


def _info_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    in_section = False
    for line in text.splitlines():
        if line.startswith("["):
            in_section = line.strip() == "[Trash Info]"
        elif in_section and "=" in line:
            key, _, value = line.partition("=")
            fields.setdefault(key.strip(), value.strip())
    return fields


def _session_id(path: Path) -> str | None:
    """The id of the session header on the file's first line, else None."""
    try:
        with open_regular_file(path) as fh:
            first = fh.readline(1 << 20)
        header = orjson.loads(first)
    except (OSError, PituiError, orjson.JSONDecodeError):
        return None
    if isinstance(header, dict) and header.get("type") == EntryType.SESSION:
        value = header.get("id")
        return value if isinstance(value, str) else None
    return None


def find(items: list[Trashed], wanted: str) -> Trashed:
    """The one trashed session `wanted` names: its original path, its name in the trash, or
    its session id (or a unique prefix of it)."""
    absolute = os.path.abspath(wanted)
    exact = [t for t in items if str(t.original) == absolute or str(t.trashed) == absolute]
    exact = exact or [t for t in items if t.trashed.name == wanted or t.session_id == wanted]
    if len(exact) == 1:
        return exact[0]
    prefix = exact or [t for t in items if t.session_id.startswith(wanted)]
    if len(prefix) == 1:
        return prefix[0]
    if not prefix:
        raise PituiError(f"no session in the trash matches {wanted!r}")
    raise PituiError(f"{len(prefix)} sessions in the trash match {wanted!r}; give more of it")


def restore(item: Trashed) -> Path:
    """Move `item` back to its original path; refuse if something is there now, but for a
    continuation of it (the lines a pi still running wrote there after it was trashed),
    which is joined to it first."""
    target = item.original
    if "\0" in str(target):
        raise PituiError(f"cannot restore {shown(target)}: its path in the trash has a null byte")
    if continuation_of(target, item.trashed) is not None:
        _make_folder(target)
        place_joining(item.trashed, target, lambda: _link_back(item, target))
        with contextlib.suppress(OSError):
            os.unlink(item.info)
        return target
    if _lexists(target):
        raise PituiError(f"cannot restore {shown(target)}: a file is there now; it was left alone")
    _make_folder(target)
    try:
        os.link(item.trashed, target)  # fails if the target appeared meanwhile
    except FileExistsError:
        raise PituiError(f"cannot restore {shown(target)}: a file is there now") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise PituiError(_cannot(target, error)) from None
        _rename_no_link(item, target)
    else:
        _unlink_trashed(item, target)
    with contextlib.suppress(OSError):
        os.unlink(item.info)
    return target


def _link_back(item: Trashed, target: Path) -> None:
    """`item` at `target` (a hard link, then the trash's name removed); `FileExistsError`
    when a file is there."""
    try:
        os.link(item.trashed, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise PituiError(_cannot(target, error)) from None
        if _lexists(target):
            raise FileExistsError(errno.EEXIST, "file exists", str(target)) from None
        _rename_no_link(item, target)
    else:
        _unlink_trashed(item, target)


def _lexists(path: Path) -> bool:
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as error:
        raise PituiError(_cannot(path, error)) from None
    return True


def _make_folder(target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise PituiError(
            f"cannot restore {shown(target)}: a file is where its folder was; it was left alone"
        ) from None
    except OSError as error:
        raise PituiError(_cannot(target, error)) from None


def _unlink_trashed(item: Trashed, target: Path) -> None:
    """The restored link is the session: take the trash's name away, or undo the restore."""
    try:
        os.unlink(item.trashed)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise PituiError(_cannot(target, error)) from None


def _rename_no_link(item: Trashed, target: Path) -> None:
    """Where hard links are not supported: a plain rename, after checking again."""
    if _lexists(target):
        raise PituiError(f"cannot restore {shown(target)}: a file is there now")
    try:
        os.rename(item.trashed, target)
    except OSError as error:
        raise PituiError(_cannot(target, error)) from None


def _cannot(target: Path, error: OSError) -> str:
    return f"cannot restore {shown(target)}: {os_reason(error)}; it is still in the trash"
