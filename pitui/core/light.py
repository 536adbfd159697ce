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
    text: Any = None


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
    for block in value or ():
        if block.type == "text" and isinstance(block.text, str) and block.text.strip():
            return True
    return False


def decode_fields(line: bytes | memoryview) -> _Fields:
    """type, id, parentId, timestamp and message.role of an entry line; raises LightError."""
    return _decode(line)
