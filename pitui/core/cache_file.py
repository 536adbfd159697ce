"""pitui's JSON caches of what session files hold: the stat a file's record is kept by, and
writing a cache to a temporary file renamed into place, so a reader sees the old cache or the
new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

import orjson

from pitui.core.regular_file import NotRegularFile, open_regular_file


def file_stamp(st: os.stat_result) -> list[int]:
    """What a file's record is kept by: its size, mtime, inode and ctime (an edit in place may
    keep the size and set the mtime back; the ctime moves all the same)."""
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def regular_stat(path: str) -> os.stat_result | None:
    """The stat of a regular file (None: gone, unreadable, or not a regular file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def read_cache(path: Path, what: str) -> tuple[bytes | None, os.stat_result | None, str | None]:
    """(bytes, stat of the file read, notice) of the cache at `path`, read only if it is a
    regular file (`regular_file.open_regular`: a FIFO in its place is never waited on, a link
    to a device never read). Not one: (None, None, a one-line notice); absent or unreadable:
    (None, None, None). Either way the cache is rebuilt, as a damaged one is (written by a
    rename over it)."""
    try:
        fh = open_regular_file(path)
    except NotRegularFile:
        return None, None, f"{what} {path} is not a regular file: rebuilt"
    except (OSError, ValueError):
        return None, None, None
    with fh:
        try:
            return fh.read(), os.fstat(fh.fileno()), None
        except (OSError, MemoryError):
            return None, None, None


def write_cache(path: Path, value: object, what: str) -> str | None:
    """Write `value` as JSON to `path`; a one-line notice if it could not be kept (a cache
    that cannot be kept costs only time), else None."""
    return write_cache_stat(path, value, what)[0]


def write_cache_stat(
    path: Path, value: object, what: str
) -> tuple[str | None, os.stat_result | None]:
    """`write_cache`, and the stat of the file written once in place (None if another
    writer's file replaced it already, or if it was not kept)."""
    try:
        body = _dumped(value)
    except (TypeError, ValueError) as error:  # a value orjson cannot write: not kept
        return f"{what} not kept ({error})", None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.stem}-", dir=path.parent)
    except OSError as error:
        return f"{what} not kept ({error.strerror or error})", None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
            fh.flush()
            ours = os.fstat(fh.fileno())
        os.replace(temp, path)
        found = os.stat(path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        return f"{what} not kept ({error.strerror or error})", None
    same = found.st_ino == ours.st_ino and found.st_dev == ours.st_dev
    return None, found if same else None


def _dumped(value: object) -> bytes:
    """`value` as JSON; a record of its tables (`files`, ...) that orjson cannot write, a
    file name that is not UTF-8 (a lone surrogate), is left out (that file is read again
    next time) rather than the whole cache."""
    try:
        return orjson.dumps(value)
    except (TypeError, ValueError):
        if not isinstance(value, dict):
            raise
    return orjson.dumps(
        {key: _writable(part) if isinstance(part, dict) else part for key, part in value.items()}
    )


def _writable(records: dict[object, object]) -> dict[object, object]:
    kept = {}
    for key, record in records.items():
        with contextlib.suppress(TypeError, ValueError):
            orjson.dumps({key: record})
            kept[key] = record
    return kept
