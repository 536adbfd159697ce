"""Fast decoding of just the fields the tree needs from a line (type, ids, time, role).

msgspec validates the whole line as JSON but builds objects only for these fields, so a
100 MB session loads without materialising every message. Anything unusual (wrong types,
invalid UTF-8, a line that is not an object) raises, and the caller falls back to a full
JSON.parse-like read.
"""

from __future__ import annotations

from typing import Any

import msgspec


class _Message(msgspec.Struct, gc=False):
    role: str | None = None
    stopReason: Any = None
    content: msgspec.Raw = msgspec.Raw(b"null")  # kept as bytes: most messages never need it


class _Block(msgspec.Struct, gc=False):
    type: Any = None
    text: msgspec.Raw = msgspec.Raw(b"null")  # bytes as written: most texts need no decoding


class _Fields(msgspec.Struct, gc=False):
    """Typed as Pi writes them: a line with other types takes the full-parse path."""

    type: str | None = None
    id: str | None = None
    parentId: str | None = None
    timestamp: Any = None
    message: _Message | None = None


_decode = msgspec.json.Decoder(_Fields).decode

LightError = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_decode_content = msgspec.json.Decoder(str | list[_Block] | None).decode


def content_has_text(content: msgspec.Raw) -> bool | None:
    """Whether raw message content holds non-blank text (None: not a recognised shape)."""
    try:
        value = _decode_content(content)
    except LightError:
        return None
    if isinstance(value, str):
        return bool(value.strip())
    return any(block.type == "text" and _raw_text_has_text(block.text) for block in value or ())


_PLAIN_BLANK = b" \t\r\n"


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


def decode_fields(line: bytes | memoryview) -> _Fields:
    """type, id, parentId, timestamp and message (role, stopReason, raw content) of an entry
    line; raises one of `LightError`."""
    return _decode(line)
