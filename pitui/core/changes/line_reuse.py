"""Whether a line is exactly what JSON.stringify(JSON.parse(line)) gives back.

Encoding JSON as JavaScript does is slow in Python; a line Pi wrote is already that encoding.
orjson's compact output equals JSON.stringify's (same escapes, non-ASCII kept, keys in
order, shortest round-trip digits) except for numbers orjson formats otherwise (integral
floats as `5.0`, exponents, integers past 2**53) and integer-like keys, which JavaScript puts
first. A line holding any of those is never taken as is. So True is proof; False only means
"encode it again".
"""

from __future__ import annotations

from typing import Any

import orjson

_MAX_SAFE = 2**53
_DIGITS = frozenset("0123456789")
_PLAIN_FLOATS = (1e-6, 1e16)  # where both write plain decimals with the same digits


def same_as_stringify(line: bytes) -> bool:
    try:
        value = orjson.loads(line)
        return _plain(value) and orjson.dumps(value) == line
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, TypeError, ValueError):
        return False


def _plain(value: Any) -> bool:
    """No value whose orjson text may differ from JavaScript's (iterative: no recursion)."""
    low, high = _PLAIN_FLOATS
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is dict:
            for key in item:
                if key[:1] in _DIGITS:  # JavaScript lists integer-like keys first
                    return False
            extend(item.values())
        elif kind is list:
            extend(item)
        elif kind is int:
            if not -_MAX_SAFE <= item <= _MAX_SAFE:
                return False
        elif kind is float:
            if item.is_integer() or not low <= abs(item) < high:
                return False
        else:
            return False
    return True
