"""Timestamps as JavaScript's `new Date(value).getTime()` sees them."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

MAX_JS_TIME = 8.64e15


def to_ms(value: Any) -> int | float | None:
    """Unix milliseconds of an ISO timestamp or a number; None where JavaScript gets NaN."""
    if isinstance(value, bool) or value is None:
        return None if value is None else int(value)
    if isinstance(value, int | float):
        if not math.isfinite(value) or abs(value) > MAX_JS_TIME:
            return None
        return int(value) if value == int(value) else math.trunc(value)
    if isinstance(value, str):
        return _iso_to_ms(value)
    return None


@lru_cache(maxsize=4096)
def _iso_to_ms(text: str) -> int | None:
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def sort_key(value: Any) -> float:
    """Key for ordering siblings oldest first; unreadable times sort last."""
    ms = to_ms(value)
    return math.inf if ms is None else float(ms)


def iso_ms(ms: float) -> str:
    """JavaScript's `Date.prototype.toISOString()` for Unix milliseconds."""
    moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(ms) % 1000:03d}Z"


def now_iso() -> str:
    now = datetime.now(tz=UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
