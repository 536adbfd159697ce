"""Parsing one JSONL line the way JavaScript's JSON.parse would see it."""

from __future__ import annotations

import json
from typing import Any

import orjson


class LineError(ValueError):
    """A line that is not a JSON value."""


def _reject_constant(name: str) -> Any:
    raise LineError(f"invalid JSON literal {name}")


def parse_line(raw: bytes) -> Any:
    """Parse one line's bytes (without its newline) to a JSON value.

    Invalid UTF-8 decodes as U+FFFD (as Node's StringDecoder does); lone surrogate escapes,
    which orjson refuses but JSON.parse accepts, go through the standard library.
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise LineError(_reason(error)) from None


def _reason(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "JSON nested too deeply"
    message = str(error)
    return message.split(":")[0] if ": line" in message else message


def dumps(value: Any) -> str:
    """Serialise compactly, as JSON.stringify does (non-ASCII kept as is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
