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
    role: Any = None


class _Fields(msgspec.Struct, gc=False):
    type: Any = None
    id: Any = None
    parentId: Any = None
    timestamp: Any = None
    message: _Message | None = None


_decode = msgspec.json.Decoder(_Fields).decode

LightError = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def decode_fields(line: bytes | memoryview) -> _Fields:
    """type, id, parentId, timestamp and message.role of an entry line; raises LightError."""
    return _decode(line)
