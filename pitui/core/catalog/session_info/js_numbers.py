"""JavaScript number arithmetic, as Pi's code adds up tokens and costs.

JSON numbers arrive as Python ints (exact at any size) or floats; JavaScript holds them all as
doubles, so sums follow the double rules past 2**53 (and an overflow is Infinity, never an
exception).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import TypeIs

SAFE_INT = 2**53 - 1


def is_number(value: object) -> TypeIs[int | float]:
    return type(value) is int or type(value) is float


def js_double(value: int | float) -> int | float:
    """A JSON number as JavaScript holds it: an int while it is exact in a double, else the
    double (an integer past the largest double is Infinity, as JSON.parse makes it)."""
    if type(value) is int and not -SAFE_INT <= value <= SAFE_INT:
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    return value


def js_add(a: int | float, b: int | float) -> int | float:
    """`a + b` on JavaScript numbers (never an exception: Infinity - Infinity is NaN)."""
    return js_double(js_double(a) + js_double(b))


def js_sum(values: Any) -> int | float:
    total: int | float = 0
    for value in values:
        total = js_add(total, value)
    return total


def node_mtime_ms(mtime_ns: int) -> int:
    """`stats.mtime` as Node builds it: `Math.round(sec * 1e3 + nsec / 1e6)` in doubles."""
    sec, nsec = divmod(mtime_ns, 1_000_000_000)
    return math.floor(sec * 1e3 + nsec / 1e6 + 0.5)
