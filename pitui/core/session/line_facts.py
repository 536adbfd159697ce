"""What the tree needs of an assistant line, read from its bytes without parsing all of it.

The tree hides assistant messages without text (Pi's filter) and names a tool result by the
call it answers, so opening a large session asks this of every assistant entry. msgspec
validates the line and builds only what is asked; text blocks' strings stay bytes unless
they might be blank.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from pitui.core.format.jsvalues import js_trim
from pitui.core.format.line_views import VIEW_ERRORS, FactsLine, TextFlagLine

_PLAIN_BLANK = b" \t\r\n"
_Line = TypeVar("_Line", FactsLine, TextFlagLine)
_decode_line = msgspec.json.Decoder(FactsLine).decode
_decode_text_line = msgspec.json.Decoder(TextFlagLine).decode


@dataclass(frozen=True, slots=True)
class LineFacts:
    """What the tree needs of an entry's message: whether it has non-blank text, and the
    tool calls it makes."""

    has_text: bool
    tool_calls: list[tuple[Any, Any, Any]]  # (id, name, arguments)


def line_facts(line: bytes, entry_id: str | None) -> LineFacts | None:
    """The facts of an entry line; None when the line has another shape or is not the entry
    `entry_id` (the caller parses it whole)."""
    decoded = _the_entry(_decode_line, line, entry_id)
    if decoded is None:
        return None
    content = None if decoded.message is None else decoded.message.content
    blocks = () if isinstance(content, str) else content or ()
    calls = [(b.id, b.name, b.arguments) for b in blocks if b.type == "toolCall"]
    return LineFacts(_has_text(content), calls)


def line_has_text(line: bytes, entry_id: str | None) -> bool | None:
    """`line_facts(line, entry_id).has_text`, without decoding the tool calls."""
    decoded = _the_entry(_decode_text_line, line, entry_id)
    if decoded is None:
        return None
    return _has_text(None if decoded.message is None else decoded.message.content)


def _the_entry(decode: Callable[[bytes], _Line], line: bytes, entry_id: str | None) -> _Line | None:
    """The decoded line if it has the shape and is the entry `entry_id`, else None."""
    try:
        decoded = decode(line)
    except VIEW_ERRORS:
        return None
    return decoded if decoded.id == entry_id else None


def _has_text(content: str | list[Any] | None) -> bool:  # Any: either line's blocks
    """Pi's check: a string content that is not blank, or a non-blank text block."""
    if isinstance(content, str):
        return bool(js_trim(content))
    return any(b.type == "text" and _raw_text_has_text(b.text) for b in content or ())


def _raw_text_has_text(raw: msgspec.Raw) -> bool:
    """A JSON string value (as bytes) that is not blank; decoded only when it might be."""
    data = bytes(raw)
    if not data.startswith(b'"'):
        return False  # not a string: Pi's text check wants a string
    inner = data[1:-1]
    if b"\\" not in inner and inner.isascii():
        return bool(inner.strip(_PLAIN_BLANK))  # printable ASCII: no decoding needed
    try:
        return bool(js_trim(msgspec.json.decode(data, type=str)))
    except VIEW_ERRORS:
        return False
