"""Markdown blocks of one entry of a branch, whatever its type."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pitui.core.export.document import Block
from pitui.core.export.fence import escape_inline, fenced, inline_code, quoted
from pitui.core.export.message_markdown import MessageRenderer
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import indented_json

ROLE_TITLES = {
    "user": "User",
    "assistant": "Assistant",
    "toolResult": "Tool result",
    "bashExecution": "Shell",
    "branchSummary": "Branch summary",
    "compactionSummary": "Compaction summary",
    "system": "System",
    "custom": "Extension message",
}


def message_heading(message: Any, suffix: str = "") -> str:
    if not isinstance(message, dict):
        return "### Message" + suffix
    role, model, tool = message.get("role"), message.get("model"), message.get("toolName")
    return (
        _heading(
            role if isinstance(role, str) or role is None else str(role),
            str(model) if model and role == "assistant" else None,
            str(tool) if tool and role == "toolResult" else None,
        )
        + suffix
    )


@lru_cache(maxsize=1024)
def _heading(role: str | None, model: str | None, tool: str | None) -> str:
    """A message heading; a session has few distinct ones, so they are made once."""
    title = ROLE_TITLES.get(role, f"Message ({role})") if role is not None else "Message"
    if model:
        title += f" · {model}"
    heading = f"### {escape_inline(title)}"
    return heading + f": {inline_code(tool)}" if tool else heading


def entry_blocks(raw: dict[str, Any], renderer: MessageRenderer) -> list[Block]:
    """The blocks of one entry (none for entries Pi never shows)."""
    kind = raw.get("type")
    blocks = _BLOCKS.get(kind) if isinstance(kind, str) else None
    if blocks is None:
        return [
            Block(
                f"*Entry of type {inline_code(str(kind))}*\n\n{fenced(indented_json(raw), 'json')}"
            )
        ]
    return blocks(raw, renderer)


def _message(raw: dict[str, Any], renderer: MessageRenderer) -> list[Block]:
    message = raw.get("message")
    return renderer.blocks(message, message_heading(message, _id_suffix(raw)))


def _custom_message(raw: dict[str, Any], renderer: MessageRenderer) -> list[Block]:
    message = {"role": "custom", "customType": raw.get("customType"), **_content(raw)}
    return renderer.blocks(message, message_heading(message, _id_suffix(raw)))


def _compaction(raw: dict[str, Any], renderer: MessageRenderer) -> list[Block]:
    tokens = raw.get("tokensBefore")
    title = "### Compaction" + (f" ({tokens} tokens before)" if tokens is not None else "")
    return [Block(f"{title}{_id_suffix(raw)}\n\n{quoted(str(raw.get('summary', '')))}")]


def _branch_summary(raw: dict[str, Any], renderer: MessageRenderer) -> list[Block]:
    summary = quoted(str(raw.get("summary", "")))
    return [Block(f"### Branch summary{_id_suffix(raw)}\n\n{summary}")]


def _label(raw: dict[str, Any]) -> str:
    target = inline_code(str(raw.get("targetId")))
    label = raw.get("label")
    if not label:
        return f"*Label cleared on {target}*"
    return f"*Label {inline_code(str(label))} on {target}*"


def _model_change(raw: dict[str, Any]) -> str:
    model = f"{raw.get('provider')}/{raw.get('modelId')}"
    return f"*Model: {inline_code(model)}*"


def _note(text: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any], Any], list[Block]]:
    """A one-line note: labels, model and thinking changes, names, extension data."""
    return lambda raw, renderer: [Block(text(raw))]


def _context_edit(raw: dict[str, Any]) -> list[Block]:
    target = inline_code(str(raw.get("targetId")))
    replacement = raw.get("replacement")
    if replacement is None:
        return [Block(f"*Context edit: {target} left out of the context*")]
    content = replacement.get("content") if isinstance(replacement, dict) else replacement
    text = content if isinstance(content, str) else indented_json(content)
    return [Block(f"*Context edit: the content of {target} replaced by*\n\n{fenced(text, 'text')}")]


def _content(raw: dict[str, Any]) -> dict[str, Any]:
    return {"content": raw["content"]} if "content" in raw else {}


def _id_suffix(raw: dict[str, Any]) -> str:
    entry_id = raw.get("id")
    return f" · {inline_code(str(entry_id))}" if entry_id is not None else ""


# The blocks of each entry type (another shows its type and its JSON).
_BLOCKS: dict[str, Callable[[dict[str, Any], MessageRenderer], list[Block]]] = {
    EntryType.MESSAGE: _message,
    EntryType.USAGE: lambda raw, renderer: [],  # Pi never shows them
    EntryType.LABEL: _note(_label),
    EntryType.MODEL_CHANGE: _note(_model_change),
    EntryType.THINKING_LEVEL_CHANGE: _note(
        lambda raw: f"*Thinking level: {inline_code(str(raw.get('thinkingLevel')))}*"
    ),
    EntryType.SESSION_INFO: _note(
        lambda raw: f"*Session named {inline_code(str(raw.get('name', '')))}*"
    ),
    EntryType.CUSTOM: _note(
        lambda raw: f"*Extension data {inline_code(str(raw.get('customType')))}*"
    ),
    EntryType.COMPACTION: _compaction,
    EntryType.BRANCH_SUMMARY: _branch_summary,
    EntryType.CUSTOM_MESSAGE: _custom_message,
    EntryType.CONTEXT_EDIT: lambda raw, renderer: _context_edit(raw),
}
