"""What the tree needs of an assistant line, read from its bytes without parsing all of it.

The tree hides assistant messages without text (Pi's filter) and names a tool result by the
call it answers, so opening a large session asks this of every assistant entry. msgspec
validates the line and builds only what is asked; text blocks' strings stay bytes unless
they might be blank.
"""

from __future__ import annotations

from typing import Any

import msgspec

LightError = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_PLAIN_BLANK = b" \t\r\n"


class _Block(msgspec.Struct, gc=False):
    type: Any = None
    text: msgspec.Raw = msgspec.Raw(b"null")


class _Message(msgspec.Struct, gc=False):
    content: str | list[_Block] | None = None


class _Line(msgspec.Struct, gc=False):
    message: _Message | None = None


_decode_line = msgspec.json.Decoder(_Line).decode


def line_has_text(line: bytes) -> bool | None:
    """Whether the message content of an entry line has non-blank text; None when the line
    has another shape (the caller parses it whole)."""
    try:
        message = _decode_line(line).message
    except LightError:
        return None
    content = None if message is None else message.content
    if isinstance(content, str):
        return bool(content.strip())
    return any(block.type == "text" and _raw_text_has_text(block.text) for block in content or ())


def _raw_text_has_text(raw: msgspec.Raw) -> bool:
    """A JSON string value (as bytes) that is not blank; decoded only when it might be."""
    data = bytes(raw)
    if not data.startswith(b'"'):
        return False  # not a string: Pi's text check wants a string
    inner = data[1:-1]
    if b"\\" not in inner and inner.isascii():
        return bool(inner.strip(_PLAIN_BLANK))  # printable ASCII: no decoding needed
    try:
        return bool(msgspec.json.decode(data, type=str).strip())
    except LightError:
        return False


class _CallBlock(msgspec.Struct, gc=False):
    type: Any = None
    id: Any = None
    name: Any = None
    arguments: Any = None


class _CallMessage(msgspec.Struct, gc=False):
    content: str | list[_CallBlock] | None = None


class _CallLine(msgspec.Struct, gc=False):
    id: Any = None
    message: _CallMessage | None = None


_decode_calls = msgspec.json.Decoder(_CallLine).decode


def line_tool_calls(line: bytes, entry_id: str | None) -> list[tuple[Any, Any, Any]] | None:
    """(id, name, arguments) of the tool calls in an entry line; None when the line has
    another shape or is not the entry `entry_id` (the caller parses it whole)."""
    try:
        decoded = _decode_calls(line)
    except LightError:
        return None
    if decoded.id != entry_id:
        return None
    content = decoded.message.content if decoded.message is not None else None
    if not isinstance(content, list):
        return []
    return [(b.id, b.name, b.arguments) for b in content if b.type == "toolCall"]
