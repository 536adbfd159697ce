"""The only changes pitui makes to a session file: label and name entries, as Pi writes them.

Pi has no lock, and may be appending to the same file at any moment. So:
- a new entry is one `os.write` of one whole line on an `O_APPEND` descriptor;
- nothing is written after a partial last line (Pi may be mid-write): wait, then refuse;
- a v1/v2 file is first migrated as Pi would migrate it (same bytes as Pi's rewrite, with the
  ids pitui has been showing), into a temporary file renamed into place only if the file did
  not change meanwhile;
- `activity_warning` says when another process seems to be writing the file; writes refuse
  with `ConcurrentWriteWarning` unless forced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pitui.core.errors import PituiError
from pitui.core.format.jsonline import LineError, dumps, parse_line
from pitui.core.format.jsvalues import js_trim
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.format.timestamps import now_iso
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session

RECENT_SECONDS = 3.0  # a file modified this recently may be being written
PARTIAL_WAIT_SECONDS = 1.0  # how long to wait for a partial last line to complete
POLL_SECONDS = 0.05
APPEND_ATTEMPTS = 20  # re-reads when the file grows between reading and writing

_CR_LF_RUNS = re.compile(r"[\r\n]+")
_MAX_ARRAY_INDEX = 2**32 - 2
_MAX_SAFE_INT = 2**53

# (inode, size, mtime_ns) of each file as pitui's own last write left it: a file still in
# that state was last modified by us, not by another writer.
_our_last_write: dict[Path, tuple[int, int, int]] = {}


class ConcurrentWriteWarning(PituiError):
    """Another process may be writing the session; retry with `force=True` to write anyway."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------- public API


def set_label(
    path: str | os.PathLike[str], entry_id: str, text: str | None, *, force: bool = False
) -> str:
    """Set (or, with None or "", clear) the label of `entry_id`; returns the new entry's id."""

    def build(session: Session) -> dict[str, Any]:
        if entry_id not in session.tree.by_id:
            raise PituiError(f"no entry with id {entry_id!r} in {session.path}")
        entry = _base_entry("label", session)
        entry["targetId"] = entry_id
        if text:
            entry["label"] = text
        return entry

    return _write_entry(path, build, force)


def set_name(path: str | os.PathLike[str], name: str, *, force: bool = False) -> str:
    """Name the session (Pi's appendSessionInfo; an empty name clears); returns the entry id."""

    def build(session: Session) -> dict[str, Any]:
        entry = _base_entry("session_info", session)
        entry["name"] = sanitize_name(name)
        return entry

    return _write_entry(path, build, force)


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


def activity_warning(path: str | os.PathLike[str]) -> str | None:
    """Why writing to `path` now may be unsafe (another writer seems active), or None."""
    path = Path(path).absolute()
    try:
        info = os.stat(path)
    except OSError as error:
        raise PituiError(_os_message("cannot read", path, error)) from None
    age = time.time() - info.st_mtime
    if -1.0 < age < RECENT_SECONDS and _our_last_write.get(path) != _fingerprint(info):
        return (
            f"{path.name} was modified {max(age, 0):.1f} s ago: another program "
            "(e.g. pi) may be writing it"
        )
    writer = _process_writing(info)
    if writer is not None:
        return f"{path.name} is open for writing by {writer}: it may be writing it right now"
    return None


# --------------------------------------------------------------------------- entries


def _fingerprint(info: os.stat_result) -> tuple[int, int, int]:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _remember_our_write(path: Path) -> None:
    with contextlib.suppress(OSError):
        _our_last_write[path] = _fingerprint(os.stat(path))


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
    used = {entry.raw_id for entry in session.tree.entries}  # as decoded: no line read again
    for _ in range(100):
        candidate = secrets.token_hex(4)
        if candidate not in used:
            return candidate
    return str(uuid.uuid4())


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
    if not force:
        warning = activity_warning(path)
        if warning is not None:
            raise ConcurrentWriteWarning(warning)
    session = Session(path)
    _wait_for_complete_line(session)
    if session.version < CURRENT_VERSION:
        new_id = _migrate_and_append(session, build)
    else:
        new_id = _append(session, build)
    _remember_our_write(path)
    return new_id


def _wait_for_complete_line(session: Session) -> None:
    """Refresh until the file ends with a newline; refuse if it stays partial."""
    deadline = time.monotonic() + PARTIAL_WAIT_SECONDS
    while session.writing_in_progress and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        session.refresh()
    if session.writing_in_progress:
        raise PituiError(
            f"{session.path.name} ends with an incomplete line (pi may be writing it): "
            "nothing was changed; try again in a moment"
        )


def _append(session: Session, build: Callable[[Session], dict[str, Any]]) -> str:
    """Append one entry line with a single write, re-reading while the file grows.

    The entry's parentId is the last entry read. If the file keeps growing (another writer is
    busy), the last attempt still writes, provided the file ends with a complete line.
    """
    path = session.path
    for attempt in range(APPEND_ATTEMPTS):
        session.refresh()
        _wait_for_complete_line(session)
        if session.version < CURRENT_VERSION:  # replaced by an older file
            return _migrate_and_append(session, build)
        fd = _open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC, "cannot write")
        try:
            last = attempt == APPEND_ATTEMPTS - 1
            if _in_step(session, fd) or (last and _ends_with_complete_line(path, fd)):
                entry = build(session)
                _write_all(fd, encode_line(entry), path)
                return str(entry["id"])
        finally:
            os.close(fd)
    raise PituiError(f"{path.name} keeps changing (pi is writing it): nothing was changed")


def _ends_with_complete_line(path: Path, fd: int) -> bool:
    """Whether the file open as `fd` ends with a newline, waiting (as for a partial last line
    before writing) while another writer's line is caught half-visible."""
    deadline = time.monotonic() + PARTIAL_WAIT_SECONDS
    while True:
        try:
            with open(path, "rb") as handle:
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


def _in_step(session: Session, fd: int) -> bool:
    """The open file is the one read, it ends where reading ended, on a complete line."""
    info = os.fstat(fd)
    try:
        same_file = os.stat(session.path).st_ino == info.st_ino
    except OSError:
        return False
    return same_file and info.st_size == session.reader.offset and not session.writing_in_progress


def _write_all(fd: int, data: bytes, path: Path) -> None:
    """Write `data` (one whole line) at the end; undo a partial write if nothing followed it."""
    start = os.fstat(fd).st_size
    written = 0
    try:
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError as error:
        if written:
            _undo_partial(fd, start, written)
        raise PituiError(_os_message("cannot write", path, error)) from None


def _undo_partial(fd: int, start: int, written: int) -> None:
    """Remove our partial line, but only if it is still the end of the file."""
    try:
        if os.fstat(fd).st_size == start + written:
            os.ftruncate(fd, start)
    except OSError:
        pass


# --------------------------------------------------------------------------- migration


def _migrate_and_append(session: Session, build: Callable[[Session], dict[str, Any]]) -> str:
    """Rewrite a v1/v2 file as Pi's migration would, plus the new entry, atomically."""
    path = session.path
    before, data = _read_snapshot(path)
    if session.reader.offset != len(data) or session.writing_in_progress:
        raise PituiError(f"{path.name} changed while being read: nothing was changed")
    entry = build(session)
    content = b"".join(encode_line(value) for value in _migrated_values(session, data))
    _replace(path, before, content + encode_line(entry))
    return str(entry["id"])


def _read_snapshot(path: Path) -> tuple[os.stat_result, bytes]:
    try:
        with open(path, "rb") as handle:
            before = os.fstat(handle.fileno())
            data = handle.read()
    except OSError as error:
        raise PituiError(_os_message("cannot read", path, error)) from None
    if len(data) != before.st_size:
        raise PituiError(f"{path.name} changed while being read: nothing was changed")
    return before, data


def _migrated_values(session: Session, data: bytes) -> list[Any]:
    """Every line Pi keeps, in order, migrated in place as Pi's migrateToCurrentVersion."""
    by_line = {entry.line: entry for entry in session.tree.entries}
    source = session.version
    values: list[Any] = []
    lines = data.split(b"\n")[:-1]
    for number, raw in enumerate(lines, start=1):
        entry = by_line.get(number)
        if entry is not None:
            values.append(entry.raw)
            continue
        value = _parse_kept(raw)
        if value is _SKIP:
            continue
        values.append(_other_line(value, number, source, header=not values, path=session.path))
    _check_ids(values, session.tree.entries)
    return values


_SKIP = object()


def _parse_kept(raw: bytes) -> Any:
    if not raw.strip():
        return _SKIP
    try:
        return parse_line(raw)
    except LineError:
        return _SKIP  # Pi drops unparsable lines when it rewrites


def _other_line(value: Any, number: int, source: int, *, header: bool, path: Path) -> Any:
    """A line that is not an entry: the header, an extra header, or a non-object value."""
    if isinstance(value, dict):
        if header or value.get("type") == "session":
            _check_header_version(value, path)
            value = dict(value)
            value["version"] = CURRENT_VERSION  # Pi sets it in place, or appends it
        return value
    if value is None or source < 2:
        raise PituiError(
            f"line {number} of {path.name} is not a JSON object: Pi cannot migrate this "
            f"v{source} file, and pitui will not write to it"
        )
    return value  # Pi's v2 -> v3 step leaves arrays, strings and numbers as they are


def _check_header_version(header: dict[str, Any], path: Path) -> None:
    version = header.get("version")
    if version is None or isinstance(version, int):
        return
    raise PituiError(
        f"{path.name} has an unusual session version {version!r}: pitui will not migrate it"
    )


def _check_ids(values: list[Any], entries: list[Entry]) -> None:
    """Guard: the entries written are exactly the ones pitui shows, in order."""
    written = [v for v in values if isinstance(v, dict) and v.get("type") != "session"]
    if [id(v) for v in written] != [id(e.raw) for e in entries]:
        raise PituiError("internal error: migrated entries do not match the session's entries")


def _replace(path: Path, before: os.stat_result, content: bytes) -> None:
    """Write `content` to a temporary file beside `path`; rename it over `path` if unchanged."""
    temporary = path.with_name(f".{path.name}.pitui-{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    fd = _open(temporary, flags, "cannot write a temporary file in", mode=0o600)
    try:
        try:
            _keep_owner_and_mode(fd, before)
            _write_all(fd, content, path)
            os.fsync(fd)
        finally:
            os.close(fd)
        _check_unchanged(path, before)
        os.rename(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise PituiError(_os_message("cannot replace", path, error)) from None
    except BaseException:
        _remove(temporary)
        raise
    _sync_folder(path.parent)


def _keep_owner_and_mode(fd: int, before: os.stat_result) -> None:
    if (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # not allowed: the rewritten file becomes ours
            os.fchown(fd, before.st_uid, before.st_gid)
    os.fchmod(fd, stat.S_IMODE(before.st_mode))


def _check_unchanged(path: Path, before: os.stat_result) -> None:
    try:
        now = os.stat(path)
    except OSError as error:
        raise PituiError(_os_message("cannot read", path, error)) from None
    same = (now.st_ino, now.st_size, now.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )
    if not same:
        raise PituiError(
            f"{path.name} changed while pitui was migrating it (pi may be writing it): "
            "nothing was changed; try again"
        )


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- helpers


def _open(path: Path, flags: int, what: str, mode: int = 0o666) -> int:
    try:
        return os.open(path, flags, mode)
    except OSError as error:
        target = path.parent if flags & os.O_CREAT else path
        raise PituiError(_os_message(what, target, error)) from None


_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.ENOENT: "it does not exist",
}


def _os_message(what: str, path: Path, error: OSError) -> str:
    reason = _REASONS.get(error.errno or 0) or error.strerror or str(error)
    return f"{what} {path}: {reason}; nothing was changed"


# --------------------------------------------------------------------------- /proc


def _process_writing(info: os.stat_result) -> str | None:
    """'pid N (name)' of another process with this file open for writing (Linux /proc)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    me = os.getpid()
    try:
        pids = [int(name) for name in os.listdir(proc) if name.isdigit()]
    except OSError:
        return None
    for pid in pids:
        if pid != me and _has_open_for_write(proc / str(pid), info):
            return f"pid {pid} ({_command_name(proc / str(pid))})"
    return None


def _has_open_for_write(process: Path, info: os.stat_result) -> bool:
    try:
        fds = os.listdir(process / "fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.stat(process / "fd" / fd)
        except OSError:
            continue
        if (target.st_dev, target.st_ino) == (info.st_dev, info.st_ino) and _writable(
            process / "fdinfo" / fd
        ):
            return True
    return False


def _writable(fdinfo: Path) -> bool:
    try:
        text = fdinfo.read_text()
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags:"):
            access = int(line.split()[1], 8) & os.O_ACCMODE
            return access in (os.O_WRONLY, os.O_RDWR)
    return False


def _command_name(process: Path) -> str:
    try:
        return (process / "comm").read_text().strip() or "?"
    except OSError:
        return "?"
