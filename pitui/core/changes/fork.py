"""A new session file holding one path of another, as Pi 1.6.0's createBranchedSession writes it.

The path from the root to the leaf is copied with label entries left out and the chain
re-linked around them; a compaction whose `firstKeptEntryId` named a dropped label names the
entry that replaced it; the labels still set on kept entries are written again after the path
(with their original timestamps); a fresh v3 header names the source as `parentSession`.
The new file is written to a temporary file and linked into place, never over an existing
file; the source is only read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import secrets
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitui.core.changes.writer import encode_line
from pitui.core.errors import PituiError
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.format.timestamps import now_iso
from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import prefetch_raw
from pitui.core.session.session import Session

_MISSING = object()


@dataclass(frozen=True, slots=True)
class ForkResult:
    path: Path
    session_id: str
    entries: int  # entries written after the header (path + labels)


def fork_session(
    source: str | os.PathLike[str], leaf_id: str, session_dir: str | os.PathLike[str] | None = None
) -> ForkResult:
    """Write the path to `leaf_id` of `source` as a new session; returns where and its id."""
    source_text = os.fspath(source)
    session = Session(source_text)  # NotASession is a PituiError
    if session.tree.get(leaf_id) is None:
        raise PituiError(f"no entry with id {leaf_id!r} in {source_text}")
    path = session.tree.path_to(leaf_id)
    prefetch_raw(path)
    entries = branch_entries(path)
    if not has_conversation(entries):
        raise PituiError(
            f"the path to {leaf_id} holds no user or assistant message: "
            "Pi writes no session file for such a branch"
        )
    labels = label_entries(session, entries)
    folder = Path(js_resolve(os.fspath(session_dir))) if session_dir else session.path.parent
    session_id = uuid7()
    timestamp = now_iso()
    header = {
        "type": "session",
        "version": CURRENT_VERSION,
        "id": session_id,
        "timestamp": timestamp,
        "cwd": js_resolve(_header_cwd(session)),
        "parentSession": js_resolve(source_text),
    }
    name = f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"
    content = b"".join(encode_line(value) for value in [header, *entries, *labels])
    target = write_new_file(folder, name, content)
    return ForkResult(target, session_id, len(entries) + len(labels))


def _header_cwd(session: Session) -> str:
    """Pi's cwd: the header's `cwd` if it is a string (even empty), else the process's."""
    cwd = session.header.get("cwd")
    return cwd if isinstance(cwd, str) else os.getcwd()


# --------------------------------------------------------------------------- entries


def branch_entries(path: list[Entry]) -> list[dict[str, Any]]:
    """The path's entries without labels, each re-linked to the one kept before it."""
    kept: list[dict[str, Any]] = []
    pending_labels: list[Any] = []
    replacement_of_label: dict[Any, Any] = {}
    parent: Any = None
    for entry in path:
        raw = entry.raw
        if raw.get("type") == "label":
            pending_labels.append(raw.get("id", _MISSING))
            continue
        own_id = raw.get("id", _MISSING)
        for label_id in pending_labels:
            if _hashable(label_id):
                replacement_of_label[label_id] = own_id
        pending_labels.clear()
        copy = dict(raw)
        _set_or_drop(copy, "parentId", parent)
        if raw.get("type") == "compaction":
            _remap_first_kept(copy, raw, replacement_of_label)
        kept.append(copy)
        parent = own_id
    return kept


def _remap_first_kept(copy: dict[str, Any], raw: dict[str, Any], remap: dict[Any, Any]) -> None:
    first_kept = raw.get("firstKeptEntryId", _MISSING)
    if first_kept is not _MISSING and first_kept == raw.get("id", _MISSING):
        return
    if _hashable(first_kept) and first_kept in remap:
        _set_or_drop(copy, "firstKeptEntryId", remap[first_kept])


def _set_or_drop(value: dict[str, Any], key: str, item: Any) -> None:
    """`{...value, [key]: item}`, where an undefined item is left out by JSON.stringify."""
    if item is _MISSING:
        value.pop(key, None)
    else:
        value[key] = item


def _hashable(value: Any) -> bool:
    return value is not _MISSING and isinstance(value, (str, int, float, bool, type(None)))


def has_conversation(entries: list[dict[str, Any]]) -> bool:
    """Pi's _hasConversation: a user or assistant message (else Pi defers writing the file)."""
    return any(
        raw.get("type") == "message"
        and isinstance(raw.get("message"), dict)
        and raw["message"].get("role") in ("user", "assistant")
        for raw in entries
    )


def label_entries(session: Session, kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Label entries for the labels (resolved over the whole file) of the kept entries."""
    resolved: dict[Any, tuple[Any, Any]] = {}  # targetId -> (label, timestamp), Map order
    label_lines = [e for e in session.tree.entries if e.type == "label"]
    prefetch_raw(label_lines)
    for entry in label_lines:
        raw = entry.raw
        target = raw.get("targetId", _MISSING)
        if not _hashable(target):
            continue
        label = raw.get("label", _MISSING)
        if label is not _MISSING and _js_truthy(label):
            resolved[target] = (label, raw.get("timestamp", _MISSING))
        else:
            resolved.pop(target, None)
    kept_ids = {raw["id"] for raw in kept if isinstance(raw.get("id"), str)}
    used = set(kept_ids)
    parent: Any = kept[-1].get("id", None) if kept else None
    written: list[dict[str, Any]] = []
    for target, (label, timestamp) in resolved.items():
        if not isinstance(target, str) or target not in kept_ids:
            continue
        entry: dict[str, Any] = {"type": "label", "id": _new_id(used), "parentId": parent}
        if timestamp is not _MISSING:
            entry["timestamp"] = timestamp
        entry["targetId"] = target
        entry["label"] = label
        used.add(entry["id"])
        written.append(entry)
        parent = entry["id"]
    return written


def _js_truthy(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return value is not None


def _new_id(used: set[str]) -> str:
    for _ in range(100):
        candidate = secrets.token_hex(4)
        if candidate not in used:
            return candidate
    return str(uuid.uuid4())


# --------------------------------------------------------------------------- names and paths


def uuid7() -> str:
    """A UUID version 7 (milliseconds since the epoch, then random bits), as Pi's uuidv7."""
    ms = time.time_ns() // 1_000_000
    value = (ms & ((1 << 48) - 1)) << 80 | secrets.randbits(80)
    value = (value & ~(0xF << 76)) | (0x7 << 76)
    value = (value & ~(0x3 << 62)) | (0x2 << 62)
    return str(uuid.UUID(int=value))


def js_resolve(path: str) -> str:
    """Pi's resolvePath: `~` expanded, `file://` URLs read, made absolute and normalised."""
    home = os.path.expanduser("~")
    if path == "~":
        path = home
    elif path.startswith("~/"):
        path = posixpath.join(home, path[2:])
    elif path.startswith("file://"):
        from urllib.parse import unquote, urlparse

        path = unquote(urlparse(path).path)
    resolved = posixpath.normpath(posixpath.join(os.getcwd(), path))
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def write_new_file(folder: Path, name: str, content: bytes) -> Path:
    """Write `content` as `folder/name`, complete or not at all, never over an existing file."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PituiError(f"cannot create {folder}: {error.strerror or error}") from None
    target = folder / name
    temporary = folder / f".{name}.pitui-{secrets.token_hex(4)}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as error:
        raise PituiError(f"cannot write in {folder}: {error.strerror or error}") from None
    try:
        try:
            _write(fd, content)
            os.fsync(fd)
        finally:
            os.close(fd)
        _move_into_place(temporary, target)
    except OSError as error:
        raise PituiError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    return target


def _write(fd: int, content: bytes) -> None:
    written = 0
    while written < len(content):
        written += os.write(fd, content[written:])


def _move_into_place(temporary: Path, target: Path) -> None:
    """Link `temporary` as `target`, failing if `target` exists (a rename where the file
    system has no hard links, after checking the name is free)."""
    try:
        os.link(temporary, target)
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "file exists") from None
        os.rename(temporary, target)
