"""A branch as a new Pi session file, re-linked as Pi's createBranchedSession does.

Label entries on the path are left out and the entries after them re-chained; every label
the session holds for an entry of the path is written again at the end, chained after the
last entry, with its own timestamp; a compaction that kept a label as its first kept entry
points at the entry that took the label's place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.ids import new_entry_id, uuid7
from pitui.core.format.jsonline import dumps
from pitui.core.format.migration import CURRENT_VERSION
from pitui.core.format.timestamps import now_iso

MISSING: Any = object()  # JavaScript's undefined: the key is left out


def branched_session_lines(
    path: Iterable[dict[str, Any]],
    labels: Iterable[tuple[Any, Any, Any]],
    *,
    cwd: str,
    parent_session: str | None,
    session_id: str | None = None,
    timestamp: str | None = None,
    new_id: Callable[[set[Any]], str] | None = None,
) -> list[str]:
    """The lines (each ending in a newline) of the new session file.

    `path`: the entries from the root to the leaf (JSON objects, not changed); `labels`:
    (targetId, label, timestamp) of every label the session holds, in Pi's order (the order
    in which each label was last set)."""
    timestamp = timestamp or now_iso()
    header: dict[str, Any] = {
        "type": "session",
        "version": CURRENT_VERSION,
        "id": session_id or uuid7(),
        "timestamp": timestamp,
        "cwd": cwd,
    }
    if parent_session is not None:
        header["parentSession"] = parent_session
    entries = _relinked(path)
    ids = {entry.get("id") for entry in entries}
    make_id = new_id or new_entry_id
    parent = entries[-1].get("id") if entries else None
    parent = parent if parent else None  # Pi: `?.id || null`
    for target, label, label_time in labels:
        if target not in ids:
            continue
        entry_id = make_id(ids)
        label_entry = {
            "type": "label",
            "id": entry_id,
            "parentId": parent,
            "timestamp": label_time,
            "targetId": target,
            "label": label,
        }
        ids.add(entry_id)
        entries.append(label_entry)
        parent = entry_id
    return [dumps(_defined(line)) + "\n" for line in [header, *entries]]


def _relinked(path: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    replacement: dict[Any, Any] = {}
    pending: list[Any] = []
    parent: Any = None
    for entry in path:
        if entry.get("type") == EntryType.LABEL:
            pending.append(entry.get("id"))
            continue
        for label_id in pending:
            replacement[label_id] = entry.get("id")
        pending.clear()
        copy = {**entry, "parentId": parent}
        first = entry.get("firstKeptEntryId")
        if (
            entry.get("type") == EntryType.COMPACTION
            and "firstKeptEntryId" in entry
            and first != entry.get("id")
        ):
            swap = replacement.get(first)
            copy["firstKeptEntryId"] = first if swap is None else swap
        kept.append(copy)
        parent = entry.get("id")
    return kept


def _defined(entry: dict[str, Any]) -> dict[str, Any]:
    """JSON.stringify leaves out undefined values: a label without a timestamp has none."""
    return {k: v for k, v in entry.items() if v is not MISSING}
