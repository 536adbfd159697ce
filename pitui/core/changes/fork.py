"""A new session file holding one path of another, as Pi 1.6.0's createBranchedSession writes it.

The path from the root to the leaf is copied with label entries left out and the chain
re-linked around them; a compaction whose `firstKeptEntryId` named a dropped label names the
entry that replaced it; the labels still set on kept entries are written again after the path
(with their original timestamps); a fresh v3 header names the source as `parentSession`.
The new file is written to a temporary file and linked into place, never over an existing
file; the source is only read.

Pi writes each entry as `JSON.stringify({...entry, parentId})`. Where neither the parent nor
anything else changes, that is the line as Pi wrote it, so the source's line is copied when it
provably round-trips (`line_reuse`), and encoded again otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pitui.core.changes.file_messages import no_entry
from pitui.core.changes.line_reuse import same_as_stringify
from pitui.core.changes.new_file import js_resolve, write_new_file
from pitui.core.changes.writer import encode_line
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.ids import new_entry_id, uuid7
from pitui.core.format.jsvalues import js_truthy
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.format.timestamps import now_iso
from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import prefetch_raw, read_lines
from pitui.core.session.session import Session

_MISSING = object()

__all__ = ["ForkResult", "Kept", "branch_entries", "fork_session", "js_resolve"]


@dataclass(frozen=True, slots=True)
class ForkResult:
    path: Path
    session_id: str
    entries: int  # entries written after the header (path + labels)


@dataclass(slots=True)
class Kept:
    """An entry of the path as the fork holds it: `value` None means exactly as in the source
    (its parentId is already the right one)."""

    entry: Entry
    own_id: Any  # its raw id (_MISSING when absent)
    value: dict[str, Any] | None = None


def fork_session(
    source: str | os.PathLike[str], leaf_id: str, session_dir: str | os.PathLike[str] | None = None
) -> ForkResult:
    """Write the path to `leaf_id` of `source` as a new session; returns where and its id."""
    source_text = os.fspath(source)
    session = Session(source_text)  # NotASession is a PituiError
    if session.tree.get(leaf_id) is None:
        raise PituiError(no_entry(leaf_id, source_text))
    kept = branch_entries(session.tree.path_to(leaf_id))
    if not has_conversation(kept):
        raise PituiError(
            f"the path to {leaf_id} holds no user or assistant message: "
            "Pi writes no session file for such a branch"
        )
    labels = label_entries(session, kept)
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
    lines = _lines(session, kept, [header], labels)
    target = write_new_file(folder, name, lines)
    return ForkResult(target, session_id, len(kept) + len(labels))


def _header_cwd(session: Session) -> str:
    """Pi's cwd: the header's `cwd` if it is a string (even empty), else the process's."""
    cwd = session.header.get("cwd")
    return cwd if isinstance(cwd, str) else os.getcwd()


# --------------------------------------------------------------------------- entries


def branch_entries(path: list[Entry]) -> list[Kept]:
    """The path's entries without labels, each re-linked to the one kept before it."""
    kept: list[Kept] = []
    pending_labels: list[Any] = []
    replacement_of_label: dict[Any, Any] = {}
    parent: Any = None
    for entry in path:
        own_id = entry.raw_id if entry.raw_id is not None else entry.raw.get("id", _MISSING)
        if entry.type == EntryType.LABEL:
            pending_labels.append(own_id)
            continue
        for label_id in pending_labels:
            if _hashable(label_id):
                replacement_of_label[label_id] = own_id
        pending_labels.clear()
        item = Kept(entry, own_id)
        if not _same_parent(entry, parent):
            item.value = dict(entry.raw)
            _set_or_drop(item.value, "parentId", parent)
        if entry.type == EntryType.COMPACTION:
            _remap_first_kept(item, replacement_of_label, parent)
        kept.append(item)
        parent = own_id
    return kept


def _same_parent(entry: Entry, parent: Any) -> bool:
    """Whether the entry's own parentId is already `parent` (decided without the full parse
    where the decoded string says it)."""
    if isinstance(parent, str) and entry.parent_id is not None:
        return entry.parent_id == parent
    raw = entry.raw
    return "parentId" in raw and raw["parentId"] is parent if parent is None else False


def _remap_first_kept(item: Kept, remap: dict[Any, Any], parent: Any) -> None:
    raw = item.entry.raw
    first_kept = raw.get("firstKeptEntryId", _MISSING)
    if first_kept is not _MISSING and first_kept == raw.get("id", _MISSING):
        return
    if _hashable(first_kept) and first_kept in remap:
        if item.value is None:
            item.value = dict(raw)
            _set_or_drop(item.value, "parentId", parent)
        _set_or_drop(item.value, "firstKeptEntryId", remap[first_kept])


def _set_or_drop(value: dict[str, Any], key: str, item: Any) -> None:
    """`{...value, [key]: item}`, where an undefined item is left out by JSON.stringify."""
    if item is _MISSING:
        value.pop(key, None)
    else:
        value[key] = item


def _hashable(value: Any) -> bool:
    return value is not _MISSING and isinstance(value, (str, int, float, bool, type(None)))


def has_conversation(kept: list[Kept]) -> bool:
    """Pi's _hasConversation: a user or assistant message (else Pi defers writing the file)."""
    return any(
        k.entry.type == EntryType.MESSAGE and k.entry.role in ("user", "assistant") for k in kept
    )


def label_entries(session: Session, kept: list[Kept]) -> list[dict[str, Any]]:
    """Label entries for the labels (resolved over the whole file) of the kept entries."""
    resolved: dict[Any, tuple[Any, Any]] = {}  # targetId -> (label, timestamp), Map order
    label = EntryType.LABEL  # bound once: the test runs per entry
    label_lines = [e for e in session.tree.entries if e.type == label]
    prefetch_raw(label_lines)
    for entry in label_lines:
        raw = entry.raw
        target = raw.get("targetId", _MISSING)
        if not _hashable(target):
            continue
        label = raw.get("label", _MISSING)
        if label is not _MISSING and js_truthy(label):
            resolved[target] = (label, raw.get("timestamp", _MISSING))
        else:
            resolved.pop(target, None)
    kept_ids = {k.own_id for k in kept if isinstance(k.own_id, str)}
    used = set(kept_ids)
    parent: Any = kept[-1].own_id if kept else None
    parent = None if parent is _MISSING else parent
    written: list[dict[str, Any]] = []
    for target, (label, timestamp) in resolved.items():
        if not isinstance(target, str) or target not in kept_ids:
            continue
        entry: dict[str, Any] = {"type": "label", "id": new_entry_id(used), "parentId": parent}
        if timestamp is not _MISSING:
            entry["timestamp"] = timestamp
        entry["targetId"] = target
        entry["label"] = label
        used.add(entry["id"])
        written.append(entry)
        parent = entry["id"]
    return written


# --------------------------------------------------------------------------- lines


def _lines(
    session: Session, kept: list[Kept], before: list[Any], after: list[Any]
) -> Iterator[bytes]:
    """Every line of the new file: unchanged entries of a current-format file as their own
    line where that is provably what Pi writes, the rest encoded as JSON.stringify."""
    yield from (encode_line(value) for value in before)
    source_lines: dict[int, bytes] = {}
    if session.version == CURRENT_VERSION:  # else entries are migrated: their lines differ
        unchanged = [k.entry for k in kept if k.value is None]
        source_lines = {id(entry): line for entry, line in read_lines(unchanged)}
    for item in kept:
        if item.value is not None:
            yield encode_line(item.value)
            continue
        line = source_lines.pop(id(item.entry), None)
        if line is not None and same_as_stringify(line):
            yield line + b"\n"
        else:
            yield encode_line(item.entry.raw)
    yield from (encode_line(value) for value in after)
