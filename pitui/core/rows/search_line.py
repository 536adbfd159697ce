"""What /tree search looks in for a message entry, read from its line without parsing all of
it: the role, the text blocks, the command. A large session's first search reads every line,
and a full parse builds the tool calls, thinking and usage it does not need."""

from __future__ import annotations

from typing import Any

import msgspec

from pitui.core.format.jsvalues import UNDEFINED, js_string
from pitui.core.rows.row_text import message_searchable_text
from pitui.core.session.entry import Entry
from pitui.core.session.light import LightError


class _Block(msgspec.Struct, gc=False):
    type: Any = UNDEFINED
    text: Any = UNDEFINED


class _Message(msgspec.Struct, gc=False):
    role: Any = UNDEFINED
    content: str | list[_Block] | None = None
    command: Any = UNDEFINED


class _Line(msgspec.Struct, gc=False):
    type: Any = None
    id: Any = None
    message: _Message | None = None


_decode = msgspec.json.Decoder(_Line).decode


def line_searchable_text(entry: Entry, line: bytes) -> str | None:
    """`searchable_text` of a message entry from its line; None when the line has another
    shape or is not this entry (the caller parses it whole)."""
    try:
        decoded = _decode(line)
    except LightError:
        return None
    message = decoded.message
    if decoded.id != entry.raw_id or decoded.type != entry.type or message is None:
        return None
    return message_searchable_text(message.role, message.content, message.command, _text_of)


def _text_of(content: str | list[_Block]) -> str:
    """Pi's extractFullContent: the string, or its text blocks' texts joined."""
    if isinstance(content, str):
        return content
    return "".join(
        text if type(text := block.text) is str else js_string(text)
        for block in content
        if block.type == "text"
    )
