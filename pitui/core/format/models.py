"""The session format as pydantic v2 models: the header, every entry type, message role and
content block, with the types Pi writes.

Reading never depends on these models: the reader keeps each line's JSON whole, so nothing a
file holds is lost and no file is rejected. The models say what a line *should* look like:
`check_entry(raw)` lists where an entry departs from the format (a number where a string
belongs, a missing field), which the message pane shows beside the entry. Every model allows
extra fields, and unknown entry types, roles and blocks are accepted as they are.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


# -- content blocks -------------------------------------------------------------------
class TextBlock(Model):
    type: Literal["text"]
    text: str


class ThinkingBlock(Model):
    type: Literal["thinking"]
    thinking: str


class ImageBlock(Model):
    type: Literal["image"]
    data: str
    mimeType: str


class ToolCallBlock(Model):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: Any = None


KNOWN_BLOCKS: dict[str, type[Model]] = {
    "text": TextBlock,
    "thinking": ThinkingBlock,
    "image": ImageBlock,
    "toolCall": ToolCallBlock,
}
Content = str | list[dict[str, Any]]


# -- messages -------------------------------------------------------------------------
class UserMessage(Model):
    role: Literal["user"]
    content: Content | None
    timestamp: int | float | None = None


class Usage(Model):
    input: int | float = 0
    output: int | float = 0
    cacheRead: int | float = 0
    cacheWrite: int | float = 0
    totalTokens: int | float | None = None
    cost: dict[str, int | float] | None = None


class AssistantMessage(Model):
    role: Literal["assistant"]
    content: list[dict[str, Any]] | None
    api: str | None = None
    provider: str | None = None
    model: str | None = None
    usage: Usage | None = None
    stopReason: str | None = None
    errorMessage: str | None = None
    timestamp: int | float | None = None


class ToolResultMessage(Model):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: Content | None
    details: Any = None
    isError: bool = False
    timestamp: int | float | None = None


class BashExecutionMessage(Model):
    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: int | None = None
    cancelled: bool = False
    truncated: bool = False
    excludeFromContext: bool | None = None
    timestamp: int | float | None = None


class CustomMessage(Model):
    role: Literal["custom"]
    customType: str
    content: Content | None
    display: bool | None = None
    details: Any = None


class SystemMessage(Model):
    role: Literal["system"]
    content: Content | None
    sections: dict[str, str | None] | None = None
    toolsAdded: list[Any] | None = None
    toolsRemoved: list[Any] | None = None


KNOWN_MESSAGES: dict[str, type[Model]] = {
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
    "bashExecution": BashExecutionMessage,
    "custom": CustomMessage,
    "system": SystemMessage,
}


# -- header and entries ---------------------------------------------------------------
class SessionHeader(Model):
    type: Literal["session"]
    id: str
    version: int | None = None
    timestamp: str
    cwd: str = ""
    parentSession: str | None = None


class Entry(Model):
    id: str
    parentId: str | None
    timestamp: str


class MessageEntry(Entry):
    type: Literal["message"]
    message: dict[str, Any]


class ModelChangeEntry(Entry):
    type: Literal["model_change"]
    provider: str
    modelId: str


class ThinkingLevelChangeEntry(Entry):
    type: Literal["thinking_level_change"]
    thinkingLevel: str


class CompactionEntry(Entry):
    type: Literal["compaction"]
    summary: str
    firstKeptEntryId: str | None = None
    tokensBefore: int | float
    details: Any = None
    usage: Usage | None = None
    fromHook: bool | None = None
    systemMessage: dict[str, Any] | None = None
    retainedTail: list[dict[str, Any]] | None = None


class BranchSummaryEntry(Entry):
    type: Literal["branch_summary"]
    fromId: str
    summary: str
    details: Any = None
    usage: Usage | None = None
    fromHook: bool | None = None


class CustomEntry(Entry):
    type: Literal["custom"]
    customType: str
    data: Any = None


class CustomMessageEntry(Entry):
    type: Literal["custom_message"]
    customType: str
    content: Content | None
    display: bool | None = None
    details: Any = None


class LabelEntry(Entry):
    type: Literal["label"]
    targetId: str
    label: str | None = None


class SessionInfoEntry(Entry):
    type: Literal["session_info"]
    name: str | None = None


class Replacement(Model):
    content: Content


class ContextEditEntry(Entry):
    type: Literal["context_edit"]
    targetId: str
    replacement: Replacement | None


class UsageEntry(Entry):
    type: Literal["usage"]
    kind: str
    provider: str
    model: str
    usage: Usage


KNOWN_ENTRIES: dict[str, type[Entry]] = {
    "message": MessageEntry,
    "model_change": ModelChangeEntry,
    "thinking_level_change": ThinkingLevelChangeEntry,
    "compaction": CompactionEntry,
    "branch_summary": BranchSummaryEntry,
    "custom": CustomEntry,
    "custom_message": CustomMessageEntry,
    "label": LabelEntry,
    "session_info": SessionInfoEntry,
    "context_edit": ContextEditEntry,
    "usage": UsageEntry,
}
KNOWN_ENTRY_TYPES = frozenset(KNOWN_ENTRIES)


def check_header(raw: dict[str, Any]) -> list[str]:
    return _problems(lambda: SessionHeader.model_validate(raw), "")


def check_entry(raw: dict[str, Any]) -> list[str]:
    """Where `raw` departs from Pi's format; [] when it conforms or its type is unknown."""
    kind = raw.get("type")
    if kind not in KNOWN_ENTRY_TYPES:
        return [] if isinstance(kind, str) else ["type: not a string"]
    problems = _problems(lambda: KNOWN_ENTRIES[kind].model_validate(raw), "")
    message = raw.get("message")
    if kind == "message" and isinstance(message, dict):
        problems += check_message(message, "message.")
    return problems


def check_message(message: dict[str, Any], prefix: str = "") -> list[str]:
    model = KNOWN_MESSAGES.get(message.get("role"))  # type: ignore[arg-type]
    if model is None:
        return []
    problems = _problems(lambda: model.model_validate(message), prefix)
    content = message.get("content")
    for index, block in enumerate(content if isinstance(content, list) else ()):
        problems += _check_block(block, f"{prefix}content.{index}.")
    return problems


def _check_block(block: Any, prefix: str) -> list[str]:
    if not isinstance(block, dict):
        return [f"{prefix.rstrip('.')}: not an object"]
    model = KNOWN_BLOCKS.get(block.get("type"))  # type: ignore[arg-type]
    return _problems(lambda: model.model_validate(block), prefix) if model else []


def _problems(validate: Any, prefix: str) -> list[str]:
    """One line per faulty location; a union's alternatives are joined with "or"."""
    try:
        validate()
    except ValidationError as error:
        by_location: dict[str, list[str]] = {}
        for item in error.errors():
            location = ".".join(str(p) for p in item["loc"] if not _is_type_name(p))
            by_location.setdefault(prefix + location, []).append(item["msg"])
        return [f"{where}: {_join(msgs)}" for where, msgs in by_location.items()]
    return []


def _join(messages: list[str]) -> str:
    unique = list(dict.fromkeys(messages))
    prefix = "Input should be "
    if all(m.startswith(prefix) for m in unique):
        return "should be " + " or ".join(m.removeprefix(prefix) for m in unique)
    return "; ".join(unique)


def _is_type_name(part: Any) -> bool:
    """pydantic names the union member it tried in locations (e.g. 'str'); drop those."""
    return isinstance(part, str) and (part[:1].islower() and ("[" in part or part in _TYPES))


_TYPES = {"str", "int", "float", "bool", "none", "list", "dict"}
