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


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _iso_to_ms(text: str) -> int | None:
    if len(text) == 24 and text[23] == "Z" and text[10] == "T" and text[19] == ".":
        try:
            year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
            hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
            millis = int(text[20:23])
        except ValueError:
            return _slow_iso_to_ms(text)
        if 1 <= month <= 12 and 1 <= day <= 28 and hour < 24 and minute < 60 and second < 60:
            days = _days_from_civil(year, month, day)
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    return _slow_iso_to_ms(text)


@lru_cache(maxsize=1024)
def _slow_iso_to_ms(text: str) -> int | None:
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


def label_time(timestamp: Any, now: datetime | None = None) -> str | None:
    """Pi's formatLabelTimestamp, in local time: `HH:MM` today, `M/D HH:MM` this year,
    else `YY/M/D HH:MM`. None for a time JavaScript cannot read."""
    ms = to_ms(timestamp)
    if ms is None:
        return None
    try:
        date = datetime.fromtimestamp(ms / 1000)
    except (OverflowError, OSError, ValueError):
        return None
    now = now or datetime.now()
    time = f"{date.hour:02d}:{date.minute:02d}"
    if date.date() == now.date():
        return time
    if date.year == now.year:
        return f"{date.month}/{date.day} {time}"
    return f"{str(date.year)[-2:]}/{date.month}/{date.day} {time}"
