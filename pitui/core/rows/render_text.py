"""Plain-text renderings of messages and entries, for the CLI and one-line previews."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import shown_json
from pitui.core.format.system_prompt import system_text
from pitui.core.session.entry import Entry


def content_text(content: Any, *, with_tools: bool = True) -> str:
    """Text of a string or a list of content blocks (text, thinking, tool calls, images)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind == "thinking" and with_tools:
            parts.append(f"[thinking] {block.get('thinking', '')}")
        elif kind == "toolCall" and with_tools:
            arguments = shown_json(block.get("arguments"), ensure_ascii=False)
            parts.append(f"[tool call {block.get('name')}] {arguments}")
        elif kind == "image":
            parts.append(f"[image {block.get('mimeType', '?')}]")
        elif with_tools:
            parts.append(f"[{kind}]")
    return "\n".join(parts)


def message_text(message: Any) -> str:
    if not isinstance(message, dict):
        return shown_json(message, ensure_ascii=False)
    role = message.get("role")
    if role == "bashExecution":
        return f"$ {message.get('command', '')}\n{message.get('output', '')}"
    if role in ("branchSummary", "compactionSummary"):
        return str(message.get("summary", ""))
    if role == "system":
        return system_text(message)
    return content_text(message.get("content"))


def entry_text(entry: Entry) -> str:
    """The main text of any entry, for previews and searching."""
    return raw_entry_text(entry.raw)


def raw_entry_text(raw: dict[str, Any]) -> str:
    """The main text of an entry's JSON (`entry_text` of one not read as an `Entry`)."""
    kind = raw.get("type")
    text = _ENTRY_TEXTS.get(kind) if isinstance(kind, str) else None
    if text is not None:
        return text(raw)
    return shown_json({k: v for k, v in raw.items() if k not in ("id", "parentId")})[:500]


def _context_edit_text(raw: dict[str, Any]) -> str:
    replacement = raw.get("replacement")
    return "omit" if replacement is None else content_text((replacement or {}).get("content"))


# The main text of each entry type (another shows its JSON, without its id and parent's).
_ENTRY_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {
    EntryType.MESSAGE: lambda raw: message_text(raw.get("message")),
    EntryType.COMPACTION: lambda raw: str(raw.get("summary", "")),
    EntryType.BRANCH_SUMMARY: lambda raw: str(raw.get("summary", "")),
    EntryType.CUSTOM_MESSAGE: lambda raw: content_text(raw.get("content")),
    EntryType.MODEL_CHANGE: lambda raw: f"{raw.get('provider')}/{raw.get('modelId')}",
    EntryType.THINKING_LEVEL_CHANGE: lambda raw: str(raw.get("thinkingLevel")),
    EntryType.LABEL: lambda raw: str(raw.get("label", "(cleared)")),
    EntryType.SESSION_INFO: lambda raw: str(raw.get("name", "")),
    EntryType.CONTEXT_EDIT: _context_edit_text,
}
