"""Pi's token estimate of a context (compaction.js: estimateTokens, estimateContextTokens)."""

from __future__ import annotations

import math
from typing import Any

from pitui.core.format.jsonline import shown_json
from pitui.core.format.jsvalues import js_length

IMAGE_CHARS = 4800


def _length(text: Any) -> int:
    """`string.length` in JavaScript of a string, else 0."""
    return js_length(text) if isinstance(text, str) else 0


def _content_chars(content: Any) -> int:
    if isinstance(content, str):
        return _length(content)
    chars = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and block.get("text"):
            chars += _length(block["text"])
        elif block.get("type") == "image":
            chars += IMAGE_CHARS
    return chars


def _assistant_chars(content: Any) -> int:
    chars = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            chars += _length(block.get("text"))
        elif kind == "thinking":
            chars += _length(block.get("thinking"))
        elif kind == "toolCall":
            arguments = shown_json(
                block.get("arguments"), separators=(",", ":"), ensure_ascii=False
            )
            chars += _length(block.get("name")) + _length(arguments)
    return chars


def estimate_tokens(message: Any) -> int:
    if not isinstance(message, dict):
        return 0
    role = message.get("role")
    if role == "system":
        chars = _content_chars(message.get("content"))
        sections = message.get("sections")
        if isinstance(sections, dict):
            chars += sum(_length(v) for v in sections.values() if v)
        if message.get("toolsAdded"):
            dumped = shown_json(message["toolsAdded"], separators=(",", ":"), ensure_ascii=False)
            chars += _length(dumped)
    elif role == "assistant":
        chars = _assistant_chars(message.get("content"))
    elif role in ("user", "custom", "toolResult"):
        chars = _content_chars(message.get("content"))
    elif role == "bashExecution":
        chars = _length(message.get("command")) + _length(message.get("output"))
    elif role in ("branchSummary", "compactionSummary"):
        chars = _length(message.get("summary"))
    else:
        return 0
    return math.ceil(chars / 4)


def _usage_tokens(message: Any) -> int:
    """Context size reported by a valid assistant usage, or 0."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return 0
    if message.get("stopReason") in ("aborted", "error"):
        return 0
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return 0
    total = usage.get("totalTokens")
    if isinstance(total, int | float) and total:
        return int(total)
    parts = [usage.get(k) for k in ("input", "output", "cacheRead", "cacheWrite")]
    numbers = [p for p in parts if isinstance(p, int | float) and not isinstance(p, bool)]
    if len(numbers) != len(parts):
        return 0
    return int(sum(numbers))


def estimate_context_tokens(messages: list[Any]) -> int:
    """Last valid assistant usage plus chars/4 for every message after it."""
    index = last_usage_index(messages)
    if index is not None:
        return _usage_tokens(messages[index]) + sum(map(estimate_tokens, messages[index + 1 :]))
    return sum(estimate_tokens(m) for m in messages)


def last_usage_index(messages: list[Any]) -> int | None:
    """The index of the last assistant message with a valid usage, if any."""
    for index in range(len(messages) - 1, -1, -1):
        if _usage_tokens(messages[index]) > 0:
            return index
    return None


def estimate_without_usage(messages: list[Any]) -> int:
    """chars/4 of every message, the system messages replayed into one current system
    message (Pi's fallback in estimateProjectedContextTokens, its getCurrentSystemMessage)."""
    system = current_system_message(messages)
    tokens = estimate_tokens(system) if system is not None else 0
    return tokens + sum(estimate_tokens(m) for m in messages if not _is_system(m))


def _is_system(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") == "system"


_UNSET = object()


def current_system_message(messages: list[Any]) -> dict[str, Any] | None:
    """Every system message replayed into one: their content joined by blank lines,
    sections patched by name (null deletes), tools added and removed by name."""
    content: list[str] = []
    sections: dict[Any, Any] = {}
    tools: dict[Any, Any] = {}
    timestamp: Any = _UNSET
    for message in messages:
        if not _is_system(message):
            continue
        if timestamp is _UNSET or timestamp is None:  # ??=
            timestamp = message.get("timestamp", _UNSET)
        if text := _content_text(message.get("content")):
            content.append(text)
        for name, value in _mapping(message.get("sections")).items():
            if value is None:
                sections.pop(name, None)
            else:
                sections[name] = value
        for tool in _list(message.get("toolsRemoved")):
            tools.pop(_name(tool), None)
        for tool in _list(message.get("toolsAdded")):
            tools[_name(tool)] = tool
    if timestamp is _UNSET and not tools:
        return None
    system: dict[str, Any] = {"role": "system", "content": "\n\n".join(content)}
    if sections:
        system["sections"] = sections
    if tools:
        system["toolsAdded"] = list(tools.values())
    return system


def _content_text(content: Any) -> str:
    """pi-ai's contentText: a string as it is, else the text blocks' texts on lines."""
    if isinstance(content, str):
        return content
    blocks = content if isinstance(content, list) else []
    return "\n".join(
        str(b.get("text")) for b in blocks if isinstance(b, dict) and b.get("type") == "text"
    )


def _mapping(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _name(tool: Any) -> Any:
    return tool.get("name") if isinstance(tool, dict) else None
