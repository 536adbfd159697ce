"""Typed views (pydantic v2) of the header, every entry type, message role and content block.

Every model keeps unknown fields (`extra="allow"`) and tolerates wrong types, so a file from
any Pi version validates. Unknown entry types, roles and blocks get the generic model and stay
visible. The reader keeps raw JSON; `parse_entry` builds these views on demand (for display),
so 100,000-entry sessions do not pay for validation on load.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError


class Lenient(BaseModel):
    """Base: unknown fields kept, anything missing defaults."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


# -- content blocks -------------------------------------------------------------------
class Block(Lenient):
    type: Any = None


class TextBlock(Block):
    text: Any = ""


class ThinkingBlock(Block):
    thinking: Any = ""


class ImageBlock(Block):
    data: Any = ""
    mimeType: Any = None


class ToolCallBlock(Block):
    id: Any = None
    name: Any = None
    arguments: Any = None


BLOCKS: dict[str, type[Block]] = {
    "text": TextBlock,
    "thinking": ThinkingBlock,
    "image": ImageBlock,
    "toolCall": ToolCallBlock,
}


def parse_block(raw: Any) -> Block:
    if not isinstance(raw, dict):
        return Block(type=None, value=raw)
    return _validate(BLOCKS.get(raw.get("type"), Block), raw)  # type: ignore[arg-type]


# -- messages -------------------------------------------------------------------------
class Message(Lenient):
    role: Any = None
    content: Any = None
    timestamp: Any = None

    @property
    def blocks(self) -> list[Block]:
        if isinstance(self.content, str):
            return [TextBlock(type="text", text=self.content)]
        if isinstance(self.content, list):
            return [parse_block(b) for b in self.content]
        return []


class UserMessage(Message):
    pass


class AssistantMessage(Message):
    api: Any = None
    provider: Any = None
    model: Any = None
    usage: Any = None
    stopReason: Any = None
    errorMessage: Any = None


class ToolResultMessage(Message):
    toolCallId: Any = None
    toolName: Any = None
    details: Any = None
    isError: Any = False


class BashExecutionMessage(Message):
    command: Any = ""
    output: Any = ""
    exitCode: Any = None
    cancelled: Any = False
    truncated: Any = False
    excludeFromContext: Any = False


class CustomMessage(Message):
    customType: Any = None
    display: Any = None
    details: Any = None


class SystemMessage(Message):
    sections: Any = None
    toolsAdded: Any = None
    toolsRemoved: Any = None


class SummaryMessage(Message):
    summary: Any = ""
    tokensBefore: Any = None
    fromId: Any = None


MESSAGES: dict[str, type[Message]] = {
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
    "bashExecution": BashExecutionMessage,
    "custom": CustomMessage,
    "hookMessage": CustomMessage,
    "system": SystemMessage,
    "branchSummary": SummaryMessage,
    "compactionSummary": SummaryMessage,
}


def parse_message(raw: Any) -> Message | None:
    if not isinstance(raw, dict):
        return None
    return _validate(MESSAGES.get(raw.get("role"), Message), raw)  # type: ignore[arg-type]


# -- header and entries ---------------------------------------------------------------
class SessionHeader(Lenient):
    type: Any = "session"
    version: Any = None
    id: Any = None
    timestamp: Any = None
    cwd: Any = None
    parentSession: Any = None


class BaseEntry(Lenient):
    type: Any = None
    id: Any = None
    parentId: Any = None
    timestamp: Any = None


class MessageEntry(BaseEntry):
    message: Any = None

    @property
    def parsed(self) -> Message | None:
        return parse_message(self.message)


class ModelChangeEntry(BaseEntry):
    provider: Any = None
    modelId: Any = None


class ThinkingLevelChangeEntry(BaseEntry):
    thinkingLevel: Any = None


class CompactionEntry(BaseEntry):
    summary: Any = ""
    firstKeptEntryId: Any = None
    tokensBefore: Any = None
    details: Any = None
    usage: Any = None
    fromHook: Any = None
    systemMessage: Any = None
    retainedTail: Any = None


class BranchSummaryEntry(BaseEntry):
    fromId: Any = None
    summary: Any = ""
    details: Any = None
    usage: Any = None
    fromHook: Any = None


class CustomEntry(BaseEntry):
    customType: Any = None
    data: Any = None


class CustomMessageEntry(BaseEntry):
    customType: Any = None
    content: Any = None
    display: Any = None
    details: Any = None


class LabelEntry(BaseEntry):
    targetId: Any = None
    label: Any = None


class SessionInfoEntry(BaseEntry):
    name: Any = None


class ContextEditEntry(BaseEntry):
    targetId: Any = None
    replacement: Any = None


class UsageEntry(BaseEntry):
    kind: Any = None
    provider: Any = None
    model: Any = None
    usage: Any = None


ENTRIES: dict[str, type[BaseEntry]] = {
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
KNOWN_ENTRY_TYPES = frozenset(ENTRIES)


def parse_entry(raw: dict[str, Any]) -> BaseEntry:
    """A typed view of an entry; unknown types get `BaseEntry` with every field kept."""
    return _validate(ENTRIES.get(raw.get("type"), BaseEntry), raw)  # type: ignore[arg-type]


def parse_header(raw: dict[str, Any]) -> SessionHeader:
    return _validate(SessionHeader, raw)


M = TypeVar("M", bound=Lenient)


def _validate(model: type[M], raw: dict[str, Any]) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError:
        return model.model_construct(**{str(k): v for k, v in raw.items()})
