"""Is another process writing this session file? Pi has no lock, so pitui looks for signs.

Two signs: the file changed in the last seconds (unless pitui itself made that change, in this
process or another one: see `remember_own_write`), and another process has it open for
writing (Linux `/proc`, `live.open_by`; Pi opens a file only for the moment of each append, a
crashed or long-running writer may keep it open). A reader (a viewer, pitui's own app) is no
sign. Where `/proc` cannot tell, the first sign is the only one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import time
from pathlib import Path

from pitui.core.changes.file_messages import os_message, shown
from pitui.core.errors import PituiError
from pitui.core.live import open_by
from pitui.core.regular_file import NotRegularFile
from pitui.core.user_dirs import cache_dir as _cache_dir

RECENT_SECONDS = 3.0  # a file modified this recently may be being written
RECORD_SECONDS = 60.0  # own-write records older than this are useless (and removed)
RECORD_FOLDER = "own-writes"

Fingerprint = tuple[int, int, int, int]  # (st_dev, st_ino, st_size, st_mtime_ns)
FileKey = tuple[int, int]  # (st_dev, st_ino)

# The state pitui's own last write left each file in (this process; other pitui processes
# leave theirs in the cache folder).
_own_writes: dict[Path, Fingerprint] = {}


class ConcurrentWriteWarning(PituiError):
    """Another process may be writing the session; retry with `force=True` to write anyway."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def activity_warning(path: str | os.PathLike[str]) -> str | None:
    """Why writing to `path` now may be unsafe (another writer seems active), or None."""
    path = Path(path).absolute()
    try:
        info = os.stat(path)
    except OSError as error:
        raise PituiError(os_message("cannot read", path, error)) from None
    if not stat.S_ISREG(info.st_mode):  # a folder just changed is not being written by pi
        raise NotRegularFile(path, info.st_mode)
    age = time.time() - info.st_mtime
    if -1.0 < age < RECENT_SECONDS and not _last_write_was_ours(path, info):
        return (
            f"{shown(path.name)} was modified {max(age, 0):.1f} s ago: another program "
            "(e.g. pi) may be writing it"
        )
    writer = process_writing(info)
    if writer is not None:
        return f"{shown(path.name)} is open for writing by {writer}: it may be writing it right now"
    return None


# --------------------------------------------------------------------------- own writes


def fingerprint(info: os.stat_result) -> Fingerprint:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def remember_own_write(path: Path, after: os.stat_result) -> None:
    """Record `after`, the state pitui's write left `path` in (taken when nothing else had
    been appended since). Any later append by another writer changes the file's size and
    mtime, so a file still in that state was last changed by pitui."""
    mark = fingerprint(after)
    _own_writes[path] = mark
    folder = _record_folder()
    if folder is not None:
        with contextlib.suppress(OSError):
            _write_record(folder, path, mark)


def _last_write_was_ours(path: Path, info: os.stat_result) -> bool:
    mark = fingerprint(info)
    if _own_writes.get(path) == mark:
        return True
    folder = _record_folder(create=False)
    return folder is not None and _read_record(folder, path) == mark


def _record_folder(create: bool = True) -> Path | None:
    try:
        folder = _cache_dir() / RECORD_FOLDER
        if create:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return folder
    except Exception:  # an unusable cache folder: own writes are remembered in memory only
        return None


def _record_name(path: Path) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:32]


def _write_record(folder: Path, path: Path, mark: Fingerprint) -> None:
    _prune_records(folder)
    name = _record_name(path)
    temporary = folder / f"{name}.{os.getpid()}.tmp"
    temporary.write_text(" ".join(map(str, mark)) + "\n")
    os.replace(temporary, folder / name)


def _read_record(folder: Path, path: Path) -> Fingerprint | None:
    try:
        fd = os.open(folder / _record_name(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            text = os.read(fd, 200).decode("ascii")
        finally:
            os.close(fd)
        dev, ino, size, mtime = (int(part) for part in text.split())
    except (OSError, ValueError):
        return None
    return (dev, ino, size, mtime)


def _prune_records(folder: Path) -> None:
    limit = time.time() - RECORD_SECONDS
    for entry in os.scandir(folder):
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < limit:
                os.unlink(entry.path)


# --------------------------------------------------------------------------- /proc


def process_writing(info: os.stat_result) -> str | None:
    """'pid N (name)' of another process with this file open for writing (Linux /proc)."""
    key = (info.st_dev, info.st_ino)
    me = os.getpid()
    for pid, fd, target in open_by.open_descriptors():
        if pid != me and target == key and open_by.writable(pid, fd):
            return f"pid {pid} ({shown(open_by.command_name(pid))})"
    return None


def files_open(keys: set[FileKey]) -> set[FileKey] | None:
    """Which of `keys` some process (this one included) has open; None without /proc."""
    found = open_by.snapshot(keys)
    return None if found is None else set(found.by_key)
