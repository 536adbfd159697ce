"""What the index keeps of one message's text: at most `MESSAGE_TEXT_CAP` bytes of its JSON,
decoded without ever decoding (copying) the whole of a huge string.

A message's JSON arrives as a `msgspec.Raw` (a view into the line, no copy); only the first
`limit` bytes of a long string literal are decoded, cut where no escape or UTF-8 character
is split.
"""

from __future__ import annotations

from typing import Any

import msgspec

from pitui.core.format.jsonline import LineError, parse_line

MESSAGE_TEXT_CAP = 1024 * 1024  # bytes of JSON text kept per message (conversation or tool)
SESSION_TEXT_CAP = 16 * 1024 * 1024  # characters of conversation text kept per session
UNSET = msgspec.UNSET


class RawBlock(msgspec.Struct, gc=False):
    type: Any = UNSET
    text: msgspec.Raw = UNSET


_decode_blocks = msgspec.json.Decoder(list[RawBlock]).decode
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


class Declined(ValueError):
    """The value is not the shape the capped decoding handles (the exact path decides)."""


def is_long(raw: msgspec.Raw | bytes) -> bool:
    return len(raw) > MESSAGE_TEXT_CAP


def string(raw: msgspec.Raw | bytes, chars: int = MESSAGE_TEXT_CAP) -> str:
    """The first `chars` characters of the JSON string literal `raw` (decoding only a prefix
    of a long one: the same characters as decoding all of it and cutting)."""
    view = memoryview(raw)
    if len(view) < 2 or view[0] != _QUOTE:
        raise Declined("not a string")
    limit = chars + 16
    while True:
        whole = len(view) <= limit + 2
        piece = bytes(view) if whole else bytes(view[: _safe_cut(view, limit)]) + b'"'
        try:
            value = parse_line(piece)
        except LineError as error:
            raise Declined(str(error)) from None
        if not isinstance(value, str):
            raise Declined("not a string")
        if whole or len(value) > chars:
            return value[:chars]
        limit *= 2  # escapes took more bytes than characters


def _safe_cut(view: memoryview, end: int) -> int:
    """A cut at or before `end` that splits no UTF-8 character and no escape sequence."""
    while end > 1 and view[end] & 0xC0 == 0x80:
        end -= 1
    for k in range(end - 1, max(end - 6, 0), -1):
        if view[k] != _BACKSLASH:
            continue
        run = 1
        while k - run > 0 and view[k - run] == _BACKSLASH:
            run += 1
        if run % 2 == 0:  # `k` ends a "\\\\" escape, which the cut does not split
            return end
        length = 6 if view[k + 1] == ord("u") else 2
        return k if k + length > end else end
    return end


def text_blocks(
    raw: msgspec.Raw | bytes, chars: int = MESSAGE_TEXT_CAP, *, tool: bool = False
) -> str:
    """The first `chars` characters of Pi's text of a message's content (a string, or its
    text blocks joined by a space; `tool`: every block's string `text`, as `tools` reads
    tool output)."""
    view = memoryview(raw)
    if len(view) and view[0] == _QUOTE:
        return string(raw, chars)
    try:
        blocks = _decode_blocks(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise Declined("not a list of blocks") from None
    parts: list[str] = []
    left = chars
    for block in blocks:
        if tool:
            if block.text is UNSET or bytes(memoryview(block.text)[:1]) != b'"':
                continue
        elif block.type != "text":
            continue
        elif block.text is UNSET:
            raise Declined("a text block without text")
        part = string(block.text, max(left, 0))
        parts.append(part)
        left -= len(part) + 1
    return " ".join(parts)[:chars]
