"""JavaScript value semantics the listing code depends on (trim, String(), new Date())."""

from __future__ import annotations

import math
import re
from typing import Any

from pitui.core.timestamps import MAX_JS_TIME, to_ms

# JavaScript's WhiteSpace + LineTerminator (what String.prototype.trim and /\s/ use).
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
JS_SPACE_RUN = re.compile(f"[{JS_SPACE}]+")


class JsTypeError(Exception):
    """Where JavaScript would throw a TypeError (Pi then drops the session from the list)."""


class Missing:
    """JavaScript's `undefined` (distinct from JSON null)."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Missing()


def js_trim(text: str) -> str:
    return text.strip(JS_SPACE)


def normalize_ws_lower(text: str) -> str:
    """`text.toLowerCase().replace(/\\s+/g, " ").trim()`."""
    return js_trim(JS_SPACE_RUN.sub(" ", text.lower()))


def js_number_string(value: float) -> str:
    integral = isinstance(value, int) or (math.isfinite(value) and value == int(value))
    if integral and abs(value) < 1e21:
        return str(int(value))
    text = repr(float(value))
    if "e" in text:
        mantissa, exp = text.split("e")
        mantissa = mantissa.removesuffix(".0")
        return f"{mantissa}e{'+' if int(exp) > 0 else '-'}{abs(int(exp))}"
    return text


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
