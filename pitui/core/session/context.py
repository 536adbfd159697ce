"""What the LLM is sent from a leaf: Pi 1.6.0's buildSessionProjection, entry by entry.

Messages are the file's own JSON objects (or shallow copies where Pi spreads them), so that
unknown fields pass through exactly as Pi would pass them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import js_truthy
from pitui.core.format.timestamps import to_ms
from pitui.core.format.tokens import (
    estimate_context_tokens,
    estimate_without_usage,
    last_usage_index,
)
from pitui.core.session.collector import collector_paused
from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import prefetch_raw
from pitui.core.session.tree import SessionTree

EDITABLE_ROLES = frozenset({"user", "assistant", "toolResult", "custom"})
EMPTY_CONTENT_ROLES = frozenset({"user", "assistant", "toolResult"})


@dataclass(slots=True)
class ProjectedEntry:
    """One entry of the context range and the messages it contributes."""

    entry: Entry
    messages: list[dict[str, Any]]
    edit: Entry | None = None

    @property
    def omitted(self) -> bool:
        return self.edit is not None and not self.messages

    @property
    def replaced(self) -> bool:
        return self.edit is not None and bool(self.messages)


@dataclass(slots=True)
class Context:
    """The projection of one leaf: settings, context entries and their messages."""

    leaf: Entry | None
    path: list[Entry]
    settings: dict[str, Any]
    items: list[ProjectedEntry] = field(default_factory=list)
    compaction: Entry | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [message for item in self.items for message in item.messages]

    def to_json(self) -> dict[str, Any]:
        """The object Pi's buildSessionContext returns (undefined values left out)."""
        return {"messages": self.messages, **self.settings}

    @property
    def tokens(self) -> int:
        """Pi's estimate of this context (estimateProjectedContextTokens, as its context
        usage shows): the last assistant usage, unless a context edit or a compaction on the
        path comes after that message's entry; then chars/4 of every message."""
        messages = self.messages
        index = last_usage_index(messages)
        if index is not None and self._usage_still_holds(index):
            return estimate_context_tokens(messages)
        return estimate_without_usage(messages)

    def _usage_still_holds(self, message_index: int) -> bool:
        source = self._entry_of_message(message_index)
        ids = [entry.raw_id for entry in self.path]
        at = ids.index(source.raw_id) if source is not None and source.raw_id in ids else -1
        invalidating = (EntryType.CONTEXT_EDIT, EntryType.COMPACTION)
        last_edit = max((i for i, e in enumerate(self.path) if e.type in invalidating), default=-1)
        return at > last_edit

    def _entry_of_message(self, message_index: int) -> Entry | None:
        """The entry whose projection holds message `message_index`."""
        start = 0
        for item in self.items:
            start += len(item.messages)
            if message_index < start:
                return item.entry
        return None


def build_context(tree: SessionTree, leaf_id: str | object | None = ...) -> Context:
    """Context from `leaf_id` (default: the file's leaf; None: empty; unknown: the leaf)."""
    with collector_paused():
        return _build_context(tree, leaf_id)


def _build_context(tree: SessionTree, leaf_id: str | object | None) -> Context:
    if leaf_id is None:
        return Context(None, [], {"thinkingLevel": "off", "model": None})
    leaf = tree.get(leaf_id) if isinstance(leaf_id, str) else None
    leaf = leaf or tree.leaf
    path = tree.path_to(leaf.id) if leaf else []
    context = Context(leaf, path, _settings(tree, path))
    at = tree.last_of_type(path, EntryType.COMPACTION)
    compaction = None if at is None else path[at]
    context.compaction = compaction
    range_entries = path if at is None else _context_entries(path, at)
    prefetch_raw(range_entries)
    context_edit, compaction_type = EntryType.CONTEXT_EDIT, EntryType.COMPACTION  # per entry
    edits = {
        e.raw["targetId"]: e
        for e in range_entries
        if e.type == context_edit and isinstance(e.raw.get("targetId"), str)
    }
    for index, entry in enumerate(range_entries):
        edit = edits.get(entry.raw_id)
        if entry.type == compaction_type and index > 0:
            context.items.append(ProjectedEntry(entry, [], None))
        else:
            context.items.append(ProjectedEntry(entry, _project(entry, edit), edit))
    return context


def _settings(tree: SessionTree, path: list[Entry]) -> dict[str, Any]:
    """Thinking level and model: the last setter on the path wins (scanned from the leaf)."""
    settings: dict[str, Any] = {"thinkingLevel": "off", "model": None}
    level = tree.last_of_type(path, EntryType.THINKING_LEVEL_CHANGE)
    if level is not None:
        _assign(settings, "thinkingLevel", path[level].raw, "thinkingLevel")
    for entry in reversed(path):
        if entry.type == EntryType.MODEL_CHANGE:
            settings["model"] = _pick({"provider": "provider", "modelId": "modelId"}, entry.raw)
            break
        if entry.type == EntryType.MESSAGE and entry.role == "assistant":
            message = entry.message or {}
            settings["model"] = _pick({"provider": "provider", "modelId": "model"}, message)
            break
    return settings


def _assign(target: dict[str, Any], key: str, source: dict[str, Any], source_key: str) -> None:
    if source_key in source:
        target[key] = source[source_key]
    else:
        target.pop(key, None)


def _pick(keys: dict[str, str], source: dict[str, Any]) -> dict[str, Any]:
    return {key: source[name] for key, name in keys.items() if name in source}


def _context_entries(path: list[Entry], at: int) -> list[Entry]:
    """The entries from the compaction at `at` on: itself, what it kept, what followed."""
    compaction = path[at]
    if isinstance(compaction.raw.get("retainedTail"), list):
        return [compaction, *path[at + 1 :]]
    start = _first_kept(path, at, compaction.raw.get("firstKeptEntryId"))
    kept = [e for e in path[start:at] if not (e.type == EntryType.MESSAGE and e.role == "system")]
    return [compaction, *kept, *path[at + 1 :]]


def _first_kept(path: list[Entry], at: int, first_kept: Any) -> int:
    """Index of the first kept entry before `at` (`at` if none). Ids on a path are unique,
    so a string id is looked for from the compaction back, the short way; an absent id
    matches the first id-less entry, as Pi's forward search does."""
    if isinstance(first_kept, str):
        return next((i for i in range(at - 1, -1, -1) if path[i].raw_id == first_kept), at)
    return next((i for i in range(at) if path[i].raw_id == first_kept), at)


def _project(entry: Entry, edit: Entry | None) -> list[dict[str, Any]]:
    messages = entry_messages(entry)
    if edit is None or "replacement" not in edit.raw:
        return messages
    replacement = edit.raw["replacement"]
    if replacement is None:
        return []
    if not isinstance(replacement, dict):
        return messages
    return [_replace_content(m, replacement) for m in messages]


def _replace_content(message: dict[str, Any], replacement: dict[str, Any]) -> dict[str, Any]:
    role = message.get("role")
    if role not in EDITABLE_ROLES:
        return message
    edited = dict(message)
    if "content" not in replacement:
        edited.pop("content", None)
        return edited
    content = replacement["content"]
    if role in ("assistant", "toolResult") and isinstance(content, str):
        content = [{"type": "text", "text": content}]
    edited["content"] = content
    return edited


def entry_messages(entry: Entry) -> list[dict[str, Any]]:
    """Pi's sessionEntryToContextMessages for one entry."""
    messages = _CONTEXT_MESSAGES.get(entry.type)
    return [] if messages is None else messages(entry.raw)


def _custom_message_messages(raw: dict[str, Any]) -> list[dict[str, Any]]:
    message: dict[str, Any] = {"role": "custom"}
    for key in ("customType",):
        if key in raw:
            message[key] = raw[key]
    message["content"] = raw.get("content") if raw.get("content") is not None else []
    for key in ("display", "details"):
        if key in raw:
            message[key] = raw[key]
    message["timestamp"] = to_ms(raw.get("timestamp"))
    return [message]


def _branch_summary_messages(raw: dict[str, Any]) -> list[dict[str, Any]]:
    if not js_truthy(raw.get("summary")):
        return []
    message = {"role": "branchSummary", "summary": raw["summary"]}
    if "fromId" in raw:
        message["fromId"] = raw["fromId"]
    message["timestamp"] = to_ms(raw.get("timestamp"))
    return [message]


def _message_of(raw: dict[str, Any]) -> list[dict[str, Any]]:
    message = raw.get("message")
    if not isinstance(message, dict):
        return [] if message is None or "message" not in raw else [message]
    if message.get("content") is None:
        role = message.get("role")
        if role == "system":
            return [{**message, "content": ""}]
        if role in EMPTY_CONTENT_ROLES:
            return [{**message, "content": []}]
    return [message]


def _compaction_messages(raw: dict[str, Any]) -> list[dict[str, Any]]:
    summary: dict[str, Any] = {"role": "compactionSummary"}
    for key in ("summary", "tokensBefore"):
        if key in raw:
            summary[key] = raw[key]
    summary["timestamp"] = to_ms(raw.get("timestamp"))
    messages = [raw["systemMessage"], summary] if js_truthy(raw.get("systemMessage")) else [summary]
    tail = raw.get("retainedTail")
    if isinstance(tail, list):
        messages.extend(m for m in tail if m is not None)
    return messages


# The messages each entry type puts in the context (another type puts none).
_CONTEXT_MESSAGES: dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {
    EntryType.MESSAGE: _message_of,
    EntryType.CUSTOM_MESSAGE: _custom_message_messages,
    EntryType.BRANCH_SUMMARY: _branch_summary_messages,
    EntryType.COMPACTION: _compaction_messages,
}
