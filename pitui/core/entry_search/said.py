"""What an entry says, as the entry search looks in it, and the role it is listed under.

An entry's text is its own: a message's text and thinking blocks, its tool calls (the tool's
name and the text values of its arguments), a tool result's or a bash execution's output, a
summary's summary. Parts are joined by newlines, so no search token (which never holds
whitespace) spans two. Only strings found in the line are used (never a number rendered
again, never JSON written anew): every character of the text is one of the line's, which
is what lets `matcher.may_match_line` rule lines out from their bytes.
"""

from __future__ import annotations

from typing import Any

from pitui.core.format.entry_types import EntryType

ROLES = ("user", "assistant", "tool")  # what `--role` accepts
_TOOL_ROLES = frozenset({"toolResult", "bashExecution"})
# entries that are not messages but say something, listed under these names
_OTHER_KINDS: dict[str, str] = {
    EntryType.CUSTOM_MESSAGE: "custom",
    EntryType.BRANCH_SUMMARY: "branchSummary",
    EntryType.COMPACTION: "compactionSummary",
}
SAYING_TYPES = frozenset({EntryType.MESSAGE, *_OTHER_KINDS})
_MESSAGE = EntryType.MESSAGE  # bound once: `role_of` runs for each line a search reads


def role_of(kind: str, role: str | None) -> str:
    """The role an entry is listed under: its message's role, else a name for its kind."""
    if kind == _MESSAGE:
        return role if isinstance(role, str) else "?"
    return _OTHER_KINDS.get(kind, kind)


def role_selected(listed: str, wanted: str | None) -> bool:
    """Whether an entry listed as `listed` is one `--role wanted` asks for."""
    if wanted is None:
        return True
    if wanted == "tool":
        return listed in _TOOL_ROLES
    return listed == wanted


def said_text(raw: dict[str, Any]) -> str | None:
    """The text of an entry's JSON object; None for an entry that says nothing."""
    kind = raw.get("type")
    if kind == _MESSAGE:
        message = raw.get("message")
        return _message_text(message) if isinstance(message, dict) else None
    if kind == EntryType.CUSTOM_MESSAGE:
        return "\n".join(_content_parts(raw.get("content")))
    if kind in (EntryType.BRANCH_SUMMARY, EntryType.COMPACTION):
        summary = raw.get("summary")
        return summary if isinstance(summary, str) else ""
    return None


def _message_text(message: dict[str, Any]) -> str:
    role = message.get("role")
    if role == "bashExecution":
        parts = [message.get("command"), message.get("output")]
        return "\n".join(p for p in parts if isinstance(p, str))
    if role in ("branchSummary", "compactionSummary"):
        summary = message.get("summary")
        return summary if isinstance(summary, str) else ""
    return "\n".join(_content_parts(message.get("content")))


def _content_parts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    parts: list[object] = []  # the strings kept below
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            parts.append(block.get("text"))
        elif kind == "thinking":
            parts.append(block.get("thinking"))
        elif kind == "toolCall":
            parts.append(block.get("name"))
            parts.extend(_strings(block.get("arguments")))
    return [p for p in parts if isinstance(p, str)]


def _strings(value: Any) -> list[str]:
    """Every string value in a JSON value, in document order (keys left out); no recursion,
    as a line may nest thousands deep."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found
