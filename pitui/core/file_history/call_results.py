"""The results answering one assistant message's tool calls: the `toolResult` messages
that follow it in the tree (Pi appends each call's result after the message, one after the
other), by call id."""

from __future__ import annotations

from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree

MAX_RESULTS = 256  # results looked at: a message rarely makes more calls


def call_results(tree: SessionTree, entry: Entry) -> dict[str, dict[str, Any]]:
    """Each `toolResult` message below `entry` in the tree, reached through tool results
    only, by its `toolCallId` (the first reached, when ids repeat)."""
    found: dict[str, dict[str, Any]] = {}
    children = tree.children
    waiting = list(reversed(children.get(entry.id, ())))
    seen = 0
    while waiting and seen < MAX_RESULTS:
        child = waiting.pop()
        if child.type != EntryType.MESSAGE or child.role != "toolResult":
            continue
        seen += 1
        message = child.read_raw().get("message")
        if isinstance(message, dict):
            call_id = message.get("toolCallId")
            if isinstance(call_id, str):
                found.setdefault(call_id, message)
        waiting += reversed(children.get(child.id, ()))
    return found
