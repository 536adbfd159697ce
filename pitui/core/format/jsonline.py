"""JSON lines the way JavaScript sees them: JSON.parse to read, JSON.stringify to write."""

from __future__ import annotations

import json
import json.encoder
import math
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from pitui.core.errors import PituiError
from pitui.core.format.jsvalues import js_number_string

# A JSON value of a session's line, as JSON.parse gives it (dict, list, str, int, float, bool,
# None) and as the writer put it: no schema is trusted, readers narrow it with isinstance.
JsonValue = Any
JsonObject = dict[str, JsonValue]  # a line's object (an entry, a message, a block)

MAX_NESTING = 20_000
_FRAMES_BELOW = 500  # the frames under a walk that starts it (the app's, the command's)
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
# What orjson refuses and JSON.parse reads, by the words of orjson's error.
_JS_ACCEPTS = ("surrogate", "UTF-8", "depth limit", "infinity")


_JSON_SPACE = b" \t\n\r"
# Bytes a JSON value can start with, and the two ASCII bytes besides JSON's whitespace that
# JavaScript's trim() takes for blank.
_VALUE_STARTS = frozenset(b'{["-0123456789tfn')
_TRIM_BLANKS = frozenset(b"\x0b\x0c")
_LOOK = 4096  # bytes of a line's start looked at


class NestedTooDeeply(PituiError):
    """A value too deeply nested to be written (deeper than any line pitui reads)."""


class LineError(ValueError):
    """A line that is not a JSON value."""


def _reject_constant(name: str) -> Any:
    raise LineError(f"invalid JSON literal {name}")


def parse_line(raw: bytes | bytearray | memoryview) -> Any:
    """Parse one line's bytes (without its newline) to a JSON value.

    Invalid UTF-8 decodes as U+FFFD (as Node's StringDecoder does); what orjson refuses but
    JSON.parse accepts (lone surrogate escapes, invalid UTF-8, deep nesting, a number too
    large for a double) goes through the standard library. Any other line is not JSON for
    either, and is not decoded again (a huge line is never held twice).
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        reason = str(error)
        if not any(word in reason for word in _JS_ACCEPTS):
            raise LineError(reason.split(": line ")[0]) from None
    text = str(raw, "utf-8", errors="replace")
    try:
        with deep_nesting_allowed():
            return json.loads(text, parse_int=js_integer, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise LineError(_reason(error)) from None


_INT64_MIN = -(2**63)
_UINT64_END = 2**64


def js_integer(text: str) -> int | float:
    """An integer's JSON text as the fast path (orjson) reads it: an int within 64 bits (the
    digits of Pi's own numbers, kept exact), else the double JSON.parse makes of it,
    `inf` past the largest one. Never Python's int() of the whole text: it refuses more
    than 4,300 digits (`sys.get_int_max_str_digits`), which would lose the entry."""
    if len(text) <= 20:
        value = int(text)
        if _INT64_MIN <= value < _UINT64_END:
            return value
    return float(text)


def cannot_be_json(start: bytes | bytearray | memoryview) -> bool:
    """Whether a line beginning with `start` is surely neither JSON nor blank: its first
    byte after JSON's whitespace is an ASCII byte that begins no JSON value and that
    JavaScript's trim() keeps (a NUL, a letter...). Such a line can be skipped as malformed
    without being read whole, however long (a file of zeros left by a crash). False when
    `start` does not tell (only whitespace in its first bytes)."""
    rest = bytes(start[:_LOOK]).lstrip(_JSON_SPACE)
    if not rest:
        return False
    first = rest[0]
    return first < 0x80 and first not in _VALUE_STARTS and first not in _TRIM_BLANKS


@contextmanager
def deep_nesting_allowed(frames_per_level: int = 1) -> Iterator[None]:
    """JSON.parse reads arrays nested thousands deep; the standard library's decoder and
    encoder, and any walk of a value that recurses (`frames_per_level` Python frames a
    level), count nesting against the recursion limit, so lift it for the one call (bounded:
    a C stack must not overflow; Python-to-Python calls use none)."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, frames_per_level * MAX_NESTING + _FRAMES_BELOW))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


NESTED_TOO_DEEPLY_SHOWN = "(nested too deeply to show)"


def shown_json(value: Any, *, indent: int | None = None, **options: Any) -> str:
    """`json.dumps(value, indent=indent, **options)` for showing or measuring a value read from
    a session: one nested deeper than the recursion limit (JSON.parse reads it, see
    `parse_line`) is written compact by the C encoder with the limit lifted as for parsing
    (an indented one recurses in Python generators, several C frames a level), never a
    RecursionError; deeper than any line pitui reads, a placeholder."""
    try:
        return json.dumps(value, indent=indent, **options)
    except RecursionError:
        pass
    try:
        with deep_nesting_allowed():
            return json.dumps(value, **options)
    except RecursionError:
        return NESTED_TOO_DEEPLY_SHOWN


def indented_json(value: Any) -> str:
    """A value read from a session as JSON indented by two, for a reader (exports)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # an integer beyond 64 bits, or nested deeper than orjson goes (255)
        return shown_json(value, ensure_ascii=False, indent=2, default=str)


def _reason(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "JSON nested too deeply"
    message = str(error)
    return message.split(":")[0] if ": line" in message else message


def js_number(value: float) -> str:
    """A number as JSON.stringify writes it (`null` where it is not finite)."""
    return js_number_string(value) if math.isfinite(value) else "null"


def _js_string(text: str) -> str:
    encoded = json.encoder.py_encode_basestring(text)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _unserialisable(value: Any) -> Any:
    raise TypeError(f"cannot serialise {type(value).__name__}")


def dumps(value: Any) -> str:
    """Serialise exactly as JSON.stringify does (compact, non-ASCII kept, JS numbers).

    The standard library's C encoder writes the text; then the few tokens it writes unlike
    JavaScript are put right: floats (`5.0`, `1e-05`, `NaN`) and lone surrogates.
    """
    try:
        text = _encode_deep(value)
    except (TypeError, ValueError):
        return _dumps_reference(value)
    text = _TOKEN.sub(_js_token, text)
    return _LONE_SURROGATE.sub(_escape_surrogate, text)


def _encode_deep(value: Any) -> str:
    """The C encoder's text; a value nested deeper than the recursion limit (JSON.parse
    reads them: see `parse_line`) is encoded again with the limit lifted as for parsing."""
    try:
        return _C_ENCODE(value)
    except RecursionError:
        pass
    try:
        with deep_nesting_allowed():
            return _C_ENCODE(value)
    except RecursionError:
        raise NestedTooDeeply(f"JSON nested more than {MAX_NESTING:,} levels deep") from None


def _dumps_reference(value: Any) -> str:
    """The same text, one value at a time in Python (slower; also names what it cannot
    serialise)."""
    out: list[str] = []
    _write(value, out, set())
    return "".join(out)


_LITERALS = {None: "null", True: "true", False: "false"}


def _write(value: Any, out: list[str], open_: set[int]) -> None:
    if value is None or value is True or value is False:
        out.append(_LITERALS[value])
    elif isinstance(value, str):
        out.append(_js_string(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(js_number(value))
    elif isinstance(value, list | tuple | dict):
        if id(value) in open_:
            raise ValueError("Circular reference detected")
        open_.add(id(value))
        if isinstance(value, dict):
            _write_object(value, out, open_)
        else:
            _write_array(value, out, open_)
        open_.discard(id(value))
    else:
        _unserialisable(value)


def _write_array(items: list[Any] | tuple[Any, ...], out: list[str], open_: set[int]) -> None:
    out.append("[")
    for i, item in enumerate(items):
        if i:
            out.append(",")
        _write(item, out, open_)
    out.append("]")


def _write_object(fields: dict[Any, Any], out: list[str], open_: set[int]) -> None:
    out.append("{")
    for i, (key, item) in enumerate(fields.items()):
        if i:
            out.append(",")
        out.append(_js_string(_key_text(key)))
        out.append(":")
        _write(item, out, open_)
    out.append("}")


def _key_text(key: Any) -> str:
    """A key as `json` writes it: str as it is, numbers and literals as their JSON text."""
    if isinstance(key, str):
        return key
    if key is None or key is True or key is False:
        return _LITERALS[key]
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        return js_number(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


_C_ENCODE = json.JSONEncoder(
    ensure_ascii=False, allow_nan=True, separators=(",", ":"), default=_unserialisable
).encode
# A run of JSON text holding no float (strings, integers, punctuation, literals: kept as it
# is, one match for the whole run), or a float as Python writes it (made JavaScript's).
_TOKEN = re.compile(
    r'((?:"[^"\\]*(?:\\.[^"\\]*)*"|[^"\d\-NI]+|-?\d+(?![\d.e]))+)'
    r"|(-?\d+(?:\.\d+)?(?:e[+-]\d+)?|NaN|-?Infinity)"
)


def _js_token(match: re.Match[str]) -> str:
    kept = match.group(1)
    return kept if kept is not None else js_number(float(match.group(2)))


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"
