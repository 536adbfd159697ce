"""Partial views of Pi's JSONL lines: each struct names only the fields one fast reader needs.

Decoding a line into a view validates the whole line (as `JSON.parse` would accept it) but
builds only these fields, several times faster than building dicts; a line the view refuses
takes its reader's exact path (the line parsed whole). A change to Pi's line format is made
here once. The options are the speed tricks and are kept exactly as measured: `gc=False`
(millions of small objects the cycle collector never has to track), `msgspec.Raw` (a value
kept as bytes and decoded only when needed), and each default (`UNSET` / `UNDEFINED`: a field
the line lacks, told apart from null). The decoders stay next to their readers.

Not here: `session.entry.Entry` and its subclass `rows.row_entry.RowEntry`, the loaded entry
(its tree fields decoded from the line, plus where it stands and its JSON read lazily).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar

import msgspec

from pitui.core.format.jsvalues import UNDEFINED

UNSET = msgspec.UNSET
# What decoding a line into a view raises when the line has another shape (or nests too deep).
VIEW_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


class TextBlock(msgspec.Struct, gc=False):
    """A content block for the listing and /tree search: a text block's text, nothing else."""

    type: Any = UNDEFINED
    text: Any = UNDEFINED


# -- the tree's facts of an assistant line (`session/line_facts.py`) ---------------------------


Block = TypeVar("Block")


class TextFlagBlock(msgspec.Struct, gc=False):
    """A block for `line_has_text`: a text as bytes (decoded if maybe blank), nothing else."""

    type: Any = None
    text: msgspec.Raw = msgspec.Raw(b"null")


class FactsBlock(TextFlagBlock, gc=False):
    """A block for `line_facts`: `TextFlagBlock` plus a tool call's fields."""

    id: Any = None
    name: Any = UNDEFINED
    arguments: Any = UNDEFINED


class ContentMessage(msgspec.Struct, Generic[Block], gc=False):
    """A message for the text flag: its content only, each block as the view `Block` reads it."""

    content: str | list[Block] | None = None


class ContentLine(msgspec.Struct, Generic[Block], gc=False):
    """An entry line for the text flag: id and content only."""

    id: Any = None
    message: ContentMessage[Block] | None = None


FactsLine = ContentLine[FactsBlock]  # the tree's text flag and tool calls
TextFlagLine = ContentLine[TextFlagBlock]  # prefetch's text flag


# -- an entry's message, as the tree holds it (`session/entry.py`) -----------------------------


class MessageFields(msgspec.Struct, gc=False):
    """An entry's message as `session.entry.Entry` holds it: the two fields the tree needs."""

    role: str | None = None
    stopReason: Any = None


# -- a row's text (`rows/row_entry.py`, `rows/all_texts.py`) -----------------------------------


class RowMessage(MessageFields, gc=False):
    """An entry's message for its row (`RowEntry`): content as a view into the read buffer."""

    if TYPE_CHECKING:  # msgspec decodes no `Raw | None`
        content: msgspec.Raw | None = None  # valid in the line hook only, which takes it
    else:
        content: msgspec.Raw = None
    errorMessage: Any = None
    toolCallId: Any = None
    toolName: Any = None


Message = TypeVar("Message")


class MessageLine(msgspec.Struct, Generic[Message], gc=False):
    """An entry line for its row (`all_texts`) or /tree search: id (still the entry's line?),
    kind and its message as the view `Message` reads it."""

    id: Any = None
    type: Any = None
    message: Message | None = None


class RowBlock(msgspec.Struct, gc=False):
    """A content block as far as a row reads it: a text, a tool call."""

    type: Any = None
    text: Any = UNDEFINED
    id: Any = None
    name: Any = UNDEFINED
    arguments: Any = UNDEFINED


RowContent = str | list[RowBlock] | None  # anything else is an unusual shape: parsed whole


class UserOrAssistantMessage(msgspec.Struct, gc=False):
    """A user's or assistant's message for its row (`all_texts`); odd content: parsed whole."""

    role: Any = None
    content: RowContent = None
    stopReason: Any = None
    errorMessage: Any = None


class ToolResultMessage(msgspec.Struct, gc=False):
    """A tool result for its row (`all_texts`): the call it answers, never its big content."""

    role: Any = None
    toolCallId: Any = None
    toolName: Any = None


# -- /tree search (`rows/search_line.py`) ------------------------------------------------------


class SearchMessage(msgspec.Struct, gc=False):
    """A message for /tree search: role, text blocks, command; no tool calls, thinking, usage."""

    role: Any = UNDEFINED
    content: str | list[TextBlock] | None = None
    command: Any = UNDEFINED


# -- the catalog's listing (`FastEntries`) -----------------------------------------------------

# A JSON number as `parse_line` reads it (orjson: a float outside int64/uint64; the struct
# path declines all ints past int64 to stay simple), or a string, boolean or null.
_Int64 = Annotated[int, msgspec.Meta(ge=-(1 << 63), le=(1 << 63) - 1)]
ListingScalar = _Int64 | float | str | bool | None


class ListingCost(msgspec.Struct, gc=False):
    """An assistant message's cost as the listing sums it: the total only."""

    total: ListingScalar = UNSET


class ListingUsage(msgspec.Struct, gc=False):
    """An assistant message's usage as the listing sums it: token counts and cost."""

    totalTokens: ListingScalar = UNSET
    input: ListingScalar = UNSET
    output: ListingScalar = UNSET
    cacheRead: ListingScalar = UNSET
    cacheWrite: ListingScalar = UNSET
    cost: ListingCost | None = UNSET


class ListingMessage(msgspec.Struct, gc=False):
    """A message for the listing: raw content (decoded for user, assistant), time, model, usage."""

    role: Any = UNSET
    content: msgspec.Raw = UNSET
    timestamp: ListingScalar = UNSET
    model: Any = UNSET
    usage: ListingUsage | None = UNSET


class ListingLine(msgspec.Struct, gc=False):
    """Any line for the listing: tree links, and what a row shows (texts, names, labels, models)."""

    type: Any = UNSET
    id: Any = UNSET
    parentId: Any = UNSET
    timestamp: ListingScalar = UNSET
    message: ListingMessage | None = UNSET
    name: Any = UNSET
    targetId: Any = UNSET
    label: Any = UNSET
    modelId: Any = UNSET


# -- the catalog's tool-output index (`tool_text`) ---------------------------------------------


class ToolOutputMessage(msgspec.Struct, gc=False):
    """A message for the tool-output index: role, and content and bash output as bytes."""

    role: Any = UNSET
    content: msgspec.Raw = UNSET
    output: msgspec.Raw = UNSET


class ToolOutputLine(msgspec.Struct, gc=False):
    """An entry line for the tool-output index: kind and message."""

    type: Any = UNSET
    message: ToolOutputMessage | None = UNSET


# -- what a session cost (`usage/extract.py`) --------------------------------------------------


class UsageCounts(msgspec.Struct):
    """Usage as `pitui stats` counts it: tokens by kind and the cost."""

    input: Any = 0
    output: Any = 0
    cacheRead: Any = 0
    cacheWrite: Any = 0
    cost: Any = None


class UsageMessage(msgspec.Struct):
    """A message for `pitui stats`: who answered (attribution), usage and time."""

    role: Any = None
    provider: Any = None
    model: Any = None
    responseModel: Any = None
    usage: UsageCounts | None = None
    timestamp: Any = None


class UsageLine(msgspec.Struct):
    """A line for `pitui stats`: id, time (fork copies), a message's or a usage entry's usage."""

    type: Any = None
    id: Any = None
    timestamp: Any = None
    message: UsageMessage | None = None
    usage: UsageCounts | None = None
    provider: Any = None
    model: Any = None


class UsageHeader(msgspec.Struct):
    """A session header for `pitui stats`: id, folder, parent, and when made (copies predate it)."""

    type: Any = None
    id: Any = None
    timestamp: Any = None
    cwd: Any = None
    parentSession: Any = None
