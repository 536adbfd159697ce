"""Timestamps as JavaScript's `new Date(value).getTime()` sees them."""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

MAX_JS_TIME = 8.64e15  # JavaScript's dates span ±8.64e15 ms: years -271821 to 275760
_MS_PER_DAY = 86_400_000
_DAY = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
# ECMAScript's date-time format with the years Python's datetime cannot hold (0, and the
# expanded ±YYYYYY): a date alone (UTC), or a date and a time with its offset.
_EXPANDED = re.compile(
    r"([+-]\d{6}|\d{4})-(\d\d)-(\d\d)"
    r"(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3})\d*)?)?(?:(Z)|([+-])(\d\d):(\d\d)))?"
)


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
    if _EXPANDED.fullmatch(text):
        return _expanded_to_ms(text)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def _expanded_to_ms(text: str) -> int | None:
    match = _EXPANDED.fullmatch(text)
    if match is None or match[1] == "-000000":
        return None
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    hour, minute, second = int(match[4] or 0), int(match[5] or 0), int(match[6] or 0)
    millis = int((match[7] or "0").ljust(3, "0"))
    if match[4] is not None and match[8] is None and match[9] is None:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):  # V8 takes February 30th as March 2nd
        return None
    if hour > 24 or minute > 59 or second > 59 or (hour == 24 and (minute or second or millis)):
        return None
    offset = 0
    if match[9] is not None:
        if int(match[10]) > 23 or int(match[11]) > 59:
            return None
        offset = (int(match[10]) * 60 + int(match[11])) * (1 if match[9] == "+" else -1)
    days = _days_from_civil(year, month, day)
    ms = ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millis
    return ms if abs(ms) <= MAX_JS_TIME else None


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of days since 1970-01-01 (Hinnant's)."""
    z = days + 719468
    era = z // 146097
    day_of_era = z - era * 146097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def _utc_text(ms: int | float, time_separator: str, seconds: bool) -> str:
    """UTC date and time of any JavaScript time, with JavaScript's expanded years."""
    days, rest = divmod(int(ms), _MS_PER_DAY)
    minutes, millis = divmod(rest, 60_000)
    hour, minute = divmod(minutes, 60)
    text = f"{_date_text(days)}{time_separator}{hour:02d}:{minute:02d}"
    return text + f":{millis // 1000:02d}.{millis % 1000:03d}" if seconds else text


@lru_cache(maxsize=4096)  # a listing's sessions share their days
def _date_text(days: int) -> str:
    year, month, day = _civil_from_days(days)
    sign = "" if 0 <= year <= 9999 else "-" if year < 0 else "+"
    return f"{sign}{abs(year):0{6 if sign else 4}d}-{month:02d}-{day:02d}"


def sort_key(value: Any) -> float:
    """Key for ordering siblings oldest first; unreadable times sort last."""
    ms = to_ms(value)
    return math.inf if ms is None else float(ms)


def iso_ms(ms: float) -> str:
    """JavaScript's `Date.prototype.toISOString()` for Unix milliseconds (any JavaScript
    time: `+275760-09-13T00:00:00.000Z` too)."""
    return _utc_text(ms, "T", seconds=True) + "Z"


def local_minutes(ms: float) -> str:
    """`YYYY-MM-DD HH:MM` in local time; in UTC (so marked) for a time beyond what the
    system's clock functions reach (Python's years 1 to 9999)."""
    try:
        return datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        return _utc_text(ms, " ", seconds=False) + " UTC"


def utc_minutes(ms: float) -> str:
    """`YYYY-MM-DD HH:MM UTC`, for any JavaScript time."""
    return _utc_text(ms, " ", seconds=False) + " UTC"


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


def parse_day(text: str) -> date:
    """A day written YYYY-MM-DD; a ValueError saying why when `text` is not one, or names a
    day that does not exist (2026-13-01, 2026-02-30)."""
    found = _DAY.fullmatch(text)
    if found is None:
        raise ValueError(f"{text!r} is not a day as YYYY-MM-DD")
    try:
        return date(*map(int, found.groups()))
    except ValueError as error:
        raise ValueError(f"{text} is not a day that exists ({error})") from None
