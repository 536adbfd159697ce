"""JavaScript value semantics Pi's code depends on (trim, Number(), String(), new Date())."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

from pitui.core.format.timestamps import MAX_JS_TIME, to_ms

# JavaScript's WhiteSpace + LineTerminator (what String.prototype.trim and /\s/ use).
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
JS_SPACE_RUN = re.compile(f"[{JS_SPACE}]+")
# str.split()'s ASCII whitespace is JavaScript's plus these four separators


class JsTypeError(Exception):
    """Where JavaScript would throw a TypeError (Pi then drops the session from the list)."""


class Missing:
    """JavaScript's `undefined` (distinct from JSON null)."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Missing()


def js_trim(text: str) -> str:
    return text.strip(JS_SPACE)


def _python_only_space(ascii_text: str) -> bool:
    """Whether the text holds an ASCII character `str.split` takes for whitespace and
    JavaScript's `\\s` does not (U+001C to U+001F): four scans in C, 30 times as fast as
    a regex's."""
    return (
        "\x1c" in ascii_text or "\x1d" in ascii_text or "\x1e" in ascii_text or "\x1f" in ascii_text
    )


def normalize_ws_lower(text: str) -> str:
    """`text.toLowerCase().replace(/\\s+/g, " ").trim()`."""
    lower = text.lower()
    if lower.isascii() and not _python_only_space(lower):
        return " ".join(lower.split())  # the same, three times as fast
    return js_trim(JS_SPACE_RUN.sub(" ", lower))


def js_number_string(value: float) -> str:
    """`String(number)` in JavaScript (shortest round-trip digits, JS exponent rules)."""
    try:
        value = float(value)
    except OverflowError:  # an integer beyond any double: JSON.parse makes it Infinity
        value = math.inf if value > 0 else -math.inf
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign, digit_tuple, exponent = Decimal(repr(value)).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = int(exponent) + k
    prefix = "-" if sign else ""
    if k <= n <= 21:
        return prefix + digits + "0" * (n - k)
    if 0 < n <= 21:
        return prefix + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return prefix + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{prefix}{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"


def js_string_to_number(text: str) -> float:
    """`Number(string)` in JavaScript: decimal, 0x/0o/0b or Infinity after a JS trim; ""
    is 0; anything else is NaN (no underscores, no digits but ASCII ones)."""
    text = js_trim(text)
    if not text:
        return 0.0
    if _JS_DECIMAL.match(text):
        return float(text)
    if _JS_PREFIXED.match(text):
        try:
            return float(int(text, 0))
        except OverflowError:
            return math.inf
    return _JS_INFINITIES.get(text, math.nan)


_JS_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_JS_PREFIXED = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")
_JS_INFINITIES = {"Infinity": math.inf, "+Infinity": math.inf, "-Infinity": -math.inf}


def js_join_item(value: Any) -> str:
    """How Array.prototype.join stringifies one element."""
    if value is None or value is UNDEFINED:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return js_number_string(value)
    if isinstance(value, list):
        return ",".join(js_join_item(v) for v in value)
    return "[object Object]"


def js_string(value: Any) -> str:
    """`String(value)` (a template literal's `${value}`) of a JSON value; UNDEFINED stands
    for a missing one."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    return js_join_item(value)


def js_to_number(value: Any) -> float:
    """ToNumber of a JSON value (what arithmetic does to it)."""
    if value is UNDEFINED or isinstance(value, dict):
        return math.nan
    if value is None:
        return 0.0
    if isinstance(value, str | list):
        return js_string_to_number(js_join_item(value))
    try:
        return float(value)  # numbers and booleans
    except OverflowError:  # an integer beyond any double: JSON.parse makes it Infinity
        return math.inf if value > 0 else -math.inf


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (objects and arrays, even empty, are true)."""
    if isinstance(value, dict | list):
        return True
    if isinstance(value, float) and value != value:
        return False
    return value not in (None, False, 0, "") and value is not UNDEFINED


def js_length(text: str) -> int:
    """`text.length`: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def js_slice(text: str, end: int) -> str:
    """`text.slice(0, end)`: JavaScript counts UTF-16 code units, so a character outside the
    Basic Multilingual Plane counts twice and may be cut in half."""
    head = text[:end]
    if head.isascii() or all(ord(c) < 0x10000 for c in head):
        return head
    units = head.encode("utf-16-le", "surrogatepass")[: 2 * end]
    return units.decode("utf-16-le", "surrogatepass")


def js_date_ms(value: Any) -> int | float | None:
    """`new Date(value).getTime()` (None for NaN); `undefined` is NaN, JSON null is 0."""
    if value is UNDEFINED:
        return None
    if value is None:
        return 0
    if isinstance(value, dict):
        return None
    if isinstance(value, list):
        return to_ms(js_join_item(value))
    return to_ms(value)


def valid_time(ms: float | None) -> int | None:
    """TimeClip: a Date's time value, or None for an Invalid Date."""
    if ms is None or not math.isfinite(ms) or abs(ms) > MAX_JS_TIME:
        return None
    return math.trunc(ms)
