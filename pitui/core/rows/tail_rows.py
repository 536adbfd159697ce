"""How the end of the active branch shows before the whole tree is built: from the last
entries of the file, the leaf (the last entry) and its ancestors among them, worded as Pi's
`/tree` words them under its default filter, without the tree's guides."""

from __future__ import annotations

from typing import Any

from pitui.core.rows.filters import passes
from pitui.core.rows.row_text import entry_display, entry_tool_calls
from pitui.core.rows.safe_text import one_line
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.entry import Entry


def tail_rows(entries: list[tuple[Entry, dict[str, Any]]]) -> list[tuple[str, str, str, str]]:
    """(tag, tag style, body, body style) of each entry on the path to the leaf that the
    default filter shows, root side first; tool results name their call when the call is among
    `entries`."""
    entries = _path_to_leaf(entries)
    calls = ToolCallMap()
    for entry, _ in entries:
        if entry.role == "assistant":
            calls.add(entry, entry_tool_calls(entry))
    last_id = entries[-1][0].id if entries else None
    rows = []
    for entry, raw in entries:
        if passes(entry, "default", last_id, ()):
            tag, tag_style, body, body_style = entry_display(entry, raw, lambda: calls.texts)
            rows.append((one_line(tag), tag_style, one_line(body), body_style))
    return rows


def _path_to_leaf(
    entries: list[tuple[Entry, dict[str, Any]]],
) -> list[tuple[Entry, dict[str, Any]]]:
    """The last entry and its ancestors found among `entries`, root side first."""
    by_id = {entry.id: (entry, raw) for entry, raw in entries if entry.id is not None}
    path: list[tuple[Entry, dict[str, Any]]] = []
    seen: set[str] = set()
    current = entries[-1] if entries else None
    while current is not None and current[0].id not in seen:
        path.append(current)
        seen.add(current[0].id)
        parent = current[0].parent_id
        current = by_id.get(parent) if parent is not None else None
    return path[::-1]
