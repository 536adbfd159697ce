"""The session format as pydantic v2 models, field by field as Pi 1.6.0's published type
declarations give it: `@earendil-works/pi-coding-agent`'s `dist/core/session-manager.d.ts`
(header, entries) and `dist/core/messages.d.ts` (bashExecution, custom, branchSummary,
compactionSummary), `@earendil-works/pi-ai`'s `dist/types.d.ts` (system, user, assistant,
toolResult, content blocks, `Usage`, tools) and `dist/utils/diagnostics.d.ts`.

Reading never depends on these models: the reader keeps each line's JSON whole, so nothing a
file holds is lost and no file is rejected. The models say what a line *should* look like:
`check_entry(raw)` lists where an entry departs from the format (a number where a string
belongs, a missing field), which the message pane and `pitui check` show. Every model allows
extra fields, and unknown entry types, roles and block types are accepted as they are (Pi
keeps them; extensions add message roles).

How TypeScript maps to JSON here: `x?: T` may be absent but, when present, must be a T
(JSON.stringify drops `undefined`, never writes `null` for it); `T | undefined` likewise. A
`number` is also accepted as `null`: JSON.stringify writes NaN and the infinities as null.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError
from pydantic_core import PydanticCustomError

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import JsonObject


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


def _number(value: Any) -> Any:
    if value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value
    raise PydanticCustomError("number_type", "Input should be a number")


Number = Annotated[Any, PlainValidator(_number)]


def absent() -> Any:
    """The default of an optional (`x?: T`) field: absent is fine, `null` is not a T."""
    return Field(default=None)


# -- content blocks (pi-ai types.d.ts) ----------------------------------------------------
class TextContent(Model):
    type: Literal["text"]
    text: str
    textSignature: str = absent()


class ThinkingContent(Model):
    type: Literal["thinking"]
    thinking: str
    thinkingSignature: str = absent()
    redacted: bool = absent()


class ImageContent(Model):
    type: Literal["image"]
    data: str
    mimeType: str


class ToolCall(Model):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: JsonObject
    thoughtSignature: str = absent()
    namespace: str = absent()
    argumentsError: str = absent()


KNOWN_BLOCKS: dict[str, type[Model]] = {
    "text": TextContent,
    "thinking": ThinkingContent,
    "image": ImageContent,
    "toolCall": ToolCall,
}
TEXT_AND_IMAGES = frozenset({"text", "image"})
Blocks = list[dict[str, Any]]  # each block is checked on its own (`_check_blocks`)
Content = str | Blocks


# -- usage, tools, diagnostics ------------------------------------------------------------
class ByKind(Model):
    """Tokens or their cost, by kind: the shape `Usage` and its `cost` share."""

    input: Number
    output: Number
    cacheRead: Number
    cacheWrite: Number


class Cost(ByKind):
    total: Number
    totalFromProvider: bool = absent()


class Usage(ByKind):
    cacheWrite1h: Number = absent()
    reasoning: Number = absent()
    totalTokens: Number
    cost: Cost


class Tool(Model):
    name: str
    description: str
    parameters: JsonObject
    constrainedSampling: Literal[False] | JsonObject = absent()


class ToolReference(Model):
    name: str


class DiagnosticErrorInfo(Model):
    name: str = absent()
    message: str
    stack: str = absent()
    code: str | Number = absent()


class AssistantMessageDiagnostic(Model):
    type: str
    timestamp: Number
    error: DiagnosticErrorInfo = absent()
    details: JsonObject = absent()


class DeferredHandle(Model):
    provider: str
    modelId: str
    api: str
    id: str
    expiresAt: Number = absent()
    pollAfterMs: Number = absent()
    data: Any = None


class NestedToolCallRecord(Model):
    id: str
    name: str
    arguments: JsonObject = absent()
    argumentsBytes: Number = absent()
    status: Literal["ok", "error", "unfinished"]
    durationMs: Number = absent()
    error: str = absent()


class NestedToolCalls(Model):
    calls: list[NestedToolCallRecord]
    complete: bool


# -- messages -----------------------------------------------------------------------------
class Message(Model):
    blocks: ClassVar[frozenset[str]] = TEXT_AND_IMAGES  # the block types its content may hold


class SystemMessage(Message):
    blocks: ClassVar[frozenset[str]] = frozenset({"text"})
    role: Literal["system"]
    content: Content
    sections: dict[str, str | None] = absent()
    toolsAdded: list[Tool] = absent()
    toolsRemoved: list[ToolReference] = absent()
    timestamp: Number


class UserMessage(Message):
    role: Literal["user"]
    content: Content
    timestamp: Number


StopReason = Literal["pending", "stop", "length", "toolUse", "error", "aborted", "deferred"]
ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh", "max"]


class AssistantMessage(Message):
    blocks: ClassVar[frozenset[str]] = frozenset({"text", "thinking", "toolCall"})
    role: Literal["assistant"]
    content: Blocks
    api: str
    provider: str
    model: str
    responseModel: str = absent()
    responseId: str = absent()
    providerThinkingLevel: str = absent()
    thinkingLevel: ThinkingLevel = absent()
    diagnostics: list[AssistantMessageDiagnostic] = absent()
    usage: Usage
    stopReason: StopReason
    deferred: DeferredHandle = absent()
    errorMessage: str = absent()
    rawStopReason: str = absent()
    endTurn: bool = absent()
    timestamp: Number
    durationMs: Number = absent()


class ToolResultMessage(Message):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: Blocks
    details: Any = None
    usage: Usage = absent()
    nestedCalls: NestedToolCalls = absent()
    isError: bool
    timestamp: Number
    durationMs: Number = absent()


class BashExecutionMessage(Message):
    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: Number = absent()  # number | undefined
    cancelled: bool
    truncated: bool
    fullOutputPath: str = absent()
    timestamp: Number
    excludeFromContext: bool = absent()


class CustomMessage(Message):
    role: Literal["custom"]
    customType: str
    content: Content
    display: bool
    details: Any = None
    timestamp: Number


class BranchSummaryMessage(Message):
    role: Literal["branchSummary"]
    summary: str
    fromId: str | None
    timestamp: Number


class CompactionSummaryMessage(Message):
    role: Literal["compactionSummary"]
    summary: str
    tokensBefore: Number
    timestamp: Number


KNOWN_MESSAGES: dict[str, type[Message]] = {
    "system": SystemMessage,
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
    "bashExecution": BashExecutionMessage,
    "custom": CustomMessage,
    "branchSummary": BranchSummaryMessage,
    "compactionSummary": CompactionSummaryMessage,
}


# -- header and entries (pi-coding-agent session-manager.d.ts) ----------------------------
class SessionHeader(Model):
    type: Literal["session"]
    version: Number = absent()
    id: str
    timestamp: str
    cwd: str
    parentSession: str = absent()


class Entry(Model):
    type: str
    id: str
    parentId: str | None
    timestamp: str


class MessageEntry(Entry):
    type: Literal["message"]
    message: JsonObject


class ThinkingLevelChangeEntry(Entry):
    type: Literal["thinking_level_change"]
    thinkingLevel: str


class ModelChangeEntry(Entry):
    type: Literal["model_change"]
    provider: str
    modelId: str


class UsageEntry(Entry):
    type: Literal["usage"]
    kind: str
    provider: str
    model: str
    usage: Usage
    note: str = absent()


class CompactionEntry(Entry):
    type: Literal["compaction"]
    summary: str
    firstKeptEntryId: str
    tokensBefore: Number
    details: Any = None
    usage: Usage = absent()
    fromHook: bool = absent()
    systemMessage: SystemMessage = absent()
    retainedTail: list[JsonObject] = absent()  # the seeds' self-contained checkpoint


class BranchSummaryEntry(Entry):
    type: Literal["branch_summary"]
    fromId: str
    summary: str
    details: Any = None
    usage: Usage = absent()
    fromHook: bool = absent()


class CustomEntry(Entry):
    type: Literal["custom"]
    customType: str
    data: Any = None


class CustomMessageEntry(Entry):
    type: Literal["custom_message"]
    customType: str
    content: Content
    details: Any = None
    display: bool


class ContextReplacement(Model):
    content: Content


class ContextEditEntry(Entry):
    type: Literal["context_edit"]
    targetId: str
    replacement: ContextReplacement | None


class LabelEntry(Entry):
    type: Literal["label"]
    targetId: str
    label: str = absent()  # string | undefined


class SessionInfoEntry(Entry):
    type: Literal["session_info"]
    name: str = absent()


KNOWN_ENTRIES: dict[str, type[Entry]] = {
    EntryType.MESSAGE: MessageEntry,
    EntryType.THINKING_LEVEL_CHANGE: ThinkingLevelChangeEntry,
    EntryType.MODEL_CHANGE: ModelChangeEntry,
    EntryType.USAGE: UsageEntry,
    EntryType.COMPACTION: CompactionEntry,
    EntryType.BRANCH_SUMMARY: BranchSummaryEntry,
    EntryType.CUSTOM: CustomEntry,
    EntryType.CUSTOM_MESSAGE: CustomMessageEntry,
    EntryType.CONTEXT_EDIT: ContextEditEntry,
    EntryType.LABEL: LabelEntry,
    EntryType.SESSION_INFO: SessionInfoEntry,
}
KNOWN_ENTRY_TYPES = frozenset(KNOWN_ENTRIES)
# where an entry holds content blocks or a message beyond what its model validates
_CONTENT_OWNERS: dict[str, frozenset[str]] = {
    EntryType.CUSTOM_MESSAGE: TEXT_AND_IMAGES,
    EntryType.CONTEXT_EDIT: frozenset(KNOWN_BLOCKS),  # any editable message's content
}


def check_header(raw: dict[str, Any]) -> list[str]:
    return _problems(lambda: SessionHeader.model_validate(raw), "")


def check_entry(raw: dict[str, Any]) -> list[str]:
    """Where `raw` departs from Pi's format; [] when it conforms or its type is unknown."""
    kind = raw.get("type")
    if kind not in KNOWN_ENTRY_TYPES:
        return [] if isinstance(kind, str) else ["type: should be a valid string"]
    problems = _problems(lambda: KNOWN_ENTRIES[kind].model_validate(raw), "")
    message = raw.get("message")
    if kind == EntryType.MESSAGE and isinstance(message, dict):
        problems += check_message(message, "message.")
    if kind == EntryType.COMPACTION:
        problems += _check_messages(raw, "systemMessage", "retainedTail")
    if kind == EntryType.CUSTOM_MESSAGE:
        problems += _check_blocks(raw.get("content"), _CONTENT_OWNERS[kind], "", "custom")
    if kind == EntryType.CONTEXT_EDIT and isinstance(raw.get("replacement"), dict):
        content = raw["replacement"].get("content")
        problems += _check_blocks(content, _CONTENT_OWNERS[kind], "replacement.", "edited")
    return problems


def check_message(message: dict[str, Any], prefix: str = "") -> list[str]:
    """Where a message departs from its role's type ([] for a role Pi does not define)."""
    role = message.get("role")
    model = KNOWN_MESSAGES.get(role) if isinstance(role, str) else None
    if model is None:
        return [] if isinstance(role, str) else [f"{prefix}role: should be a valid string"]
    problems = _problems(lambda: model.model_validate(message), prefix)
    return problems + _check_blocks(message.get("content"), model.blocks, prefix, str(role))


def _check_messages(raw: dict[str, Any], one: str, many: str) -> list[str]:
    """The content blocks of a compaction's system message and of its retained messages."""
    problems = []
    if isinstance(raw.get(one), dict):
        problems += _check_blocks(
            raw[one].get("content"), SystemMessage.blocks, f"{one}.", "system"
        )
    for index, message in enumerate(raw.get(many) or () if isinstance(raw.get(many), list) else ()):
        if isinstance(message, dict):
            problems += check_message(message, f"{many}.{index}.")
    return problems


def _check_blocks(content: Any, allowed: frozenset[str], prefix: str, role: str) -> list[str]:
    problems: list[str] = []
    for index, block in enumerate(content if isinstance(content, list) else ()):
        where = f"{prefix}content.{index}"
        if not isinstance(block, dict):
            problems.append(f"{where}: should be an object")
            continue
        kind = block.get("type")
        model = KNOWN_BLOCKS.get(kind) if isinstance(kind, str) else None
        if model is None:
            continue  # a block type Pi does not define: kept and shown as it is
        if kind not in allowed:
            problems.append(f"{where}.type: a {kind} block does not belong in {role} content")
            continue
        problems += _problems(lambda m=model, b=block: m.model_validate(b), where + ".")
    return problems


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
    if not isinstance(part, str):
        return False
    return part in _MODEL_NAMES or (part[:1].islower() and ("[" in part or part in _TYPES))


_TYPES = {"str", "int", "float", "bool", "none", "list", "dict"}
_MODEL_NAMES = {"ContextReplacement"}
