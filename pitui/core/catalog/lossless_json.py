"""JSON for the index's blobs that keeps every value Pi's files can hold.

orjson (fast) refuses a lone UTF-16 surrogate (Node's JSON.stringify writes one as `\\ud83d`
when a string was cut inside an emoji) and integers past 64 bits, and writes Infinity as null.
Those rare values take the standard library's encoder, whose escapes read back exactly;
`js_number` / `from_js_number` carry Infinity and NaN through as strings.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

_SURROGATE = re.compile("[\ud800-\udfff]")
_SPECIAL = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode()


def loads(data: bytes | str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


def js_number(value: int | float) -> int | float | str:
    """A number as stored: Infinity and NaN as their names (JSON has no token for them)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    return value


def from_js_number(value: Any) -> int | float:
    if isinstance(value, str):
        return _SPECIAL.get(value, math.nan)
    return value if isinstance(value, int | float) else 0


def storable(text: str) -> str:
    """`text` as SQLite can store it (lone surrogates as U+FFFD; the exact text then goes in a
    blob too, see `has_surrogates`)."""
    return _SURROGATE.sub("\ufffd", text) if has_surrogates(text) else text


def has_surrogates(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None
