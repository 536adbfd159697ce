"""The only changes pitui makes to a session file: label and name entries, as Pi writes them.

Pi has no lock, and may be appending to the same file at any moment. So:
- a new entry is one `os.write` of one whole line on an `O_APPEND` descriptor;
- nothing is written after a partial last line (Pi may be mid-write): wait, then refuse;
- a v1/v2 file is first migrated as Pi would migrate it (same bytes as Pi's rewrite, with the
  ids pitui has been showing), losing no line appended meanwhile (`migrate_file`), and only
  once the entry to append has been built from the file as read: a request refused (no such
  id) leaves an old file unmigrated;
- `activity_warning` says when another process seems to be writing the file; writes refuse
  with `ConcurrentWriteWarning` unless forced (`write_guard`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pitui.core.changes.file_messages import no_entry, os_message, shown
from pitui.core.changes.file_writes import write_all
from pitui.core.changes.migrate_file import migrate_on_disk
from pitui.core.changes.stale_temporaries import remove_stale_temporaries
from pitui.core.changes.write_guard import (
    ConcurrentWriteWarning,
    activity_warning,
    remember_own_write,
)
from pitui.core.errors import PituiError
from pitui.core.format.ids import new_entry_id
from pitui.core.format.jsonline import dumps
from pitui.core.format.jsvalues import js_trim
from pitui.core.format.migration import CURRENT_VERSION, is_newer
from pitui.core.format.timestamps import now_iso
from pitui.core.regular_file import open_regular
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session

__all__ = [
    "ConcurrentWriteWarning",
    "activity_warning",
    "encode_line",
    "label_text",
    "refuse_without_id",
    "sanitize_name",
    "set_label",
    "set_name",
]

PARTIAL_WAIT_SECONDS = 1.0  # how long to wait for a partial last line to complete
POLL_SECONDS = 0.05
APPEND_ATTEMPTS = 20  # re-reads when the file grows between reading and writing
MIGRATE_ATTEMPTS = 3  # migrations in a row (the file replaced by an old one each time)

_CR_LF_RUNS = re.compile(r"[\r\n]+")
_MAX_ARRAY_INDEX = 2**32 - 2
_MAX_SAFE_INT = 2**53


# --------------------------------------------------------------------------- public API


def set_label(
    path: str | os.PathLike[str], entry_id: str, text: str | None, *, force: bool = False
) -> str:
    """Set (or, with None or "", clear) the label of `entry_id`; returns the new entry's id."""

    def build(session: Session) -> dict[str, Any]:
        target = session.tree.by_id.get(entry_id)
        if target is None:
            raise PituiError(no_entry(entry_id, session.path))
        refuse_without_id(target, "labelled")
        entry = _base_entry("label", session)
        entry["targetId"] = entry_id
        if text:
            entry["label"] = text
        return entry

    return _write_entry(path, build, force)


def refuse_without_id(target: Entry, done: str) -> None:
    """An entry whose line has no id shows under a stand-in (`line:7`) that no line written
    can point at: Pi's reader would never match it (and Pi itself writes such a label with
    no target, which then labels every entry without an id)."""
    if target.raw_id is None:
        raise PituiError(
            f"the entry on line {target.line} has no id: it cannot be {done}; nothing was changed"
        )


def set_name(path: str | os.PathLike[str], name: str, *, force: bool = False) -> str:
    """Name the session (Pi's appendSessionInfo; an empty name clears); returns the entry id."""

    def build(session: Session) -> dict[str, Any]:
        entry = _base_entry("session_info", session)
        entry["name"] = sanitize_name(name)
        return entry

    return _write_entry(path, build, force)


def label_text(text: str | None) -> str | None:
    """What Pi's /tree label editor stores for typed `text`: trimmed, None (clear) if empty."""
    if text is None:
        return None
    return js_trim(text) or None


def append_entry(
    path: str | os.PathLike[str],
    entry_type: str,
    fill: Callable[[Session, dict[str, Any]], None],
    *,
    force: bool = False,
) -> str:
    """Append one `entry_type` entry as the label and name entries are appended: `{type, id,
    parentId, timestamp}` then what `fill(session, entry)` adds (it may raise PituiError to
    refuse); returns the new entry's id."""

    def build(session: Session) -> dict[str, Any]:
        entry = _base_entry(entry_type, session)
        fill(session, entry)
        return entry

    return _write_entry(path, build, force)


def sanitize_name(name: str) -> str:
    """`name.replace(/[\\r\\n]+/g, " ").trim()`, as Pi's appendSessionInfo."""
    return js_trim(_CR_LF_RUNS.sub(" ", name))


# --------------------------------------------------------------------------- entries


def _base_entry(entry_type: str, session: Session) -> dict[str, Any]:
    """`{type, id, parentId, timestamp}` in Pi's key order; parentId = the file's last entry."""
    entry: dict[str, Any] = {"type": entry_type, "id": _new_id(session)}
    last = session.tree.entries[-1].raw if session.tree.entries else None
    if last is None:
        entry["parentId"] = None
    elif "id" in last:  # Pi's leafId is the raw id; an absent one is omitted by stringify
        entry["parentId"] = last["id"]
    entry["timestamp"] = now_iso()
    return entry


def _new_id(session: Session) -> str:
    """8 lowercase hex chars unused in the file (a full UUID after 100 collisions), as Pi."""
    return new_entry_id({entry.raw_id for entry in session.tree.entries})  # no line read again


def encode_line(value: Any) -> bytes:
    """`JSON.stringify(value) + "\\n"` as UTF-8 bytes."""
    return (dumps(_js_normalise(value)) + "\n").encode("utf-8")


def _js_normalise(value: Any) -> Any:
    """What JavaScript holds after JSON.parse: integer-like keys first, big ints as doubles."""
    if isinstance(value, dict):
        items = [(key, _js_normalise(item)) for key, item in value.items()]
        indexes = sorted((pair for pair in items if _is_array_index(pair[0])), key=_index_key)
        if indexes:
            items = indexes + [pair for pair in items if not _is_array_index(pair[0])]
        return dict(items)
    if isinstance(value, list):
        return [_js_normalise(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _MAX_SAFE_INT:
        try:
            return float(value)
        except OverflowError:
            return None  # Infinity in JavaScript, which JSON.stringify writes as null
    return value


def _is_array_index(key: str) -> bool:
    if not (key.isascii() and key.isdigit()) or (len(key) > 1 and key[0] == "0"):
        return False
    return int(key) <= _MAX_ARRAY_INDEX


def _index_key(pair: tuple[str, Any]) -> int:
    return int(pair[0])


# --------------------------------------------------------------------------- writing


def _write_entry(
    path: str | os.PathLike[str], build: Callable[[Session], dict[str, Any]], force: bool
) -> str:
    path = Path(path).absolute()
    remove_stale_temporaries(path.parent)
    if not force:
        warning = activity_warning(path)
        if warning is not None:
            raise ConcurrentWriteWarning(warning)
    session = Session(path)
    _wait_for_complete_line(session)
    new_id, after = _append(session, build)
    if after is not None:
        remember_own_write(path, after)
    return new_id


def _refuse_newer_format(session: Session) -> None:
    """A session in a newer format is read as far as pitui can, never written: an entry in
    the format pitui knows could break it for the Pi that wrote it."""
    if is_newer(session.header):
        version = shown(str(session.header.get("version")))
        raise PituiError(
            f"{shown(session.path.name)} is in a newer session format (version {version}) "
            "than pitui writes: nothing was changed"
        )


def _migrate(session: Session) -> None:
    """Bring an old-format file to the current version on disk, as Pi does on loading it."""
    for _ in range(MIGRATE_ATTEMPTS):
        if session.version >= CURRENT_VERSION:
            return
        migrate_on_disk(session, encode_line)
    if session.version < CURRENT_VERSION:
        raise PituiError(
            f"{shown(session.path.name)} keeps being replaced by an old-format file: "
            "nothing was changed"
        )


def _wait_for_complete_line(session: Session) -> None:
    """Refresh until the file ends with a newline; refuse if it stays partial. A last line
    that is a whole entry and stays without its newline for the wait is ended, as Pi ends it
    when it opens the session: a writer that stopped there will not add it."""
    deadline = time.monotonic() + PARTIAL_WAIT_SECONDS
    while session.writing_in_progress and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        session.refresh()
    if session.reader.unterminated and session.reader.partial_bytes == 0:
        _end_last_line(session)
        session.refresh()
    if session.writing_in_progress:
        raise PituiError(_incomplete_line(session.path))


STOPPED_AFTER = 60.0  # seconds without a change: the writer of a partial last line stopped


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds / 60:,.0f} min"


def _incomplete_line(path: Path) -> str:
    """Why nothing was written: a writer at work (try again), or one that stopped mid-line
    long ago (trying again will not help: pitui never writes after a partial line)."""
    try:
        idle = time.time() - os.stat(path).st_mtime
    except OSError:
        idle = 0.0
    if idle < STOPPED_AFTER:
        return (
            f"{shown(path.name)} ends with an incomplete line (pi may be writing it): "
            "nothing was changed; try again in a moment"
        )
    return (
        f"{shown(path.name)} ends with an incomplete line, unchanged for {_duration(idle)} "
        "(a writer stopped in the middle of it): nothing was changed; pitui writes only after "
        "a whole line (pitui check shows the line)"
    )


def _end_last_line(session: Session) -> None:
    """Append the newline of the whole entry the file ends with, if it still ends there."""
    path = session.path
    fd = _open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | os.O_NONBLOCK, "cannot write")
    try:
        if _in_step(session, fd, terminated=False):
            write_all(fd, b"\n", path)
    finally:
        os.close(fd)


def _append(
    session: Session, build: Callable[[Session], dict[str, Any]]
) -> tuple[str, os.stat_result | None]:
    """Append one entry line with a single write, re-reading while the file grows; returns
    the entry's id, and the file's state right after (None if another line came meanwhile).

    The entry's parentId is the last entry read. If the file keeps growing (another writer is
    busy), the last attempt still writes, provided the file ends with a complete line.
    """
    path = session.path
    for attempt in range(APPEND_ATTEMPTS):
        session.refresh()
        _refuse_newer_format(session)
        if session.version < CURRENT_VERSION:
            # the request checked first, against the ids the migration gives (the ones read:
            # it is deterministic): one that is refused leaves the file as it was
            build(session)
        _migrate(session)
        _wait_for_complete_line(session)
        # O_NONBLOCK: a file swapped for a FIFO since it was read fails at once, never hangs
        flags = os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | os.O_NONBLOCK
        fd = _open(path, flags, "cannot write")
        try:
            last = attempt == APPEND_ATTEMPTS - 1
            if _in_step(session, fd) or (last and _ends_with_complete_line(path, fd)):
                entry = build(session)
                after = write_all(fd, encode_line(entry), path)
                return str(entry["id"]), after
        finally:
            os.close(fd)
    raise PituiError(f"{shown(path.name)} keeps changing (pi is writing it): nothing was changed")


def _ends_with_complete_line(path: Path, fd: int) -> bool:
    """Whether the file open as `fd` ends with a newline, waiting (as for a partial last line
    before writing) while another writer's line is caught half-visible."""
    deadline = time.monotonic() + PARTIAL_WAIT_SECONDS
    while True:
        try:
            with os.fdopen(open_regular(path), "rb") as handle:
                info, ours = os.fstat(handle.fileno()), os.fstat(fd)
                if (info.st_dev, info.st_ino) != (ours.st_dev, ours.st_ino):
                    return False  # replaced meanwhile: not the file we would write to
                size = info.st_size
                if size > 0 and os.pread(handle.fileno(), 1, size - 1) == b"\n":
                    return True
        except OSError:
            return False
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)


def _in_step(session: Session, fd: int, terminated: bool = True) -> bool:
    """The open file is the one read, it ends where reading ended, on a complete line (or,
    not `terminated`, on the whole entry read without its newline)."""
    info = os.fstat(fd)
    try:
        same_file = os.stat(session.path).st_ino == info.st_ino
    except OSError:
        return False
    ended = not session.writing_in_progress if terminated else session.reader.unterminated
    return same_file and info.st_size == session.reader.offset and ended


# --------------------------------------------------------------------------- helpers


def _open(path: Path, flags: int, what: str, mode: int = 0o666) -> int:
    try:
        return os.open(path, flags, mode)
    except OSError as error:
        target = path.parent if flags & os.O_CREAT else path
        raise PituiError(os_message(what, target, error)) from None
