"""What one session file says it cost: the usage Pi stored, in buckets per day and model.

Counted as Pi 1.6.0's `getSessionStats` counts (all entries, compacted history included):
`message.usage` of assistant messages, `usage` entries (e.g. cache warming), the usage of
tool results and of compaction / branch summaries. Attribution follows Pi's
`getUsageCostBreakdown`: an assistant reply to `provider` / (`responseModel` ?? `model`), a
`usage` entry to its `provider` / `model`, tool results and summaries to `Tools/summaries`.

Each id counts once per file (a later line with the same id wins, as in the tree), so a
reply shared by several branches counts once. Entries dated before the file's header are
copies a fork made (Pi's `forkFrom` and `createBranchedSession` copy entries with their ids
and timestamps into a newer file): they are kept apart (`copies`) so that `lineage` can count
each in one file only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.format.line_views import UsageCounts, UsageHeader, UsageLine, UsageMessage
from pitui.core.format.timestamps import to_ms
from pitui.core.regular_file import read_regular

TOOLS_MODEL = "Tools/summaries"
NUMBERS = 6  # assistant messages, input, output, cacheRead, cacheWrite, cost


_decode_line = msgspec.json.Decoder(UsageLine).decode
_decode_header = msgspec.json.Decoder(UsageHeader).decode


@dataclass
class Counted:
    """One counted entry: where its usage goes and what it adds."""

    key: str
    copy_ms: int | None  # the entry's time when it is a fork's copy, else None
    day: str
    provider: str
    model: str
    values: tuple[int, float, float, float, float, float]


@dataclass
class FileUsage:
    """A session's header facts and its counted usage (`buckets`: native, `copies`: copied,
    and native entries a bucket could not add without its sum passing the largest double:
    rows of their own, `copy_ms` None, so that a cache row is never Infinity)."""

    session_id: str
    cwd: str
    parent: str | None
    created_ms: int | None
    created_iso: str | None = None
    buckets: dict[tuple[str, str, str], list[float]] = field(default_factory=dict)
    copies: list[Counted] = field(default_factory=list)


def read_usage(path: str) -> FileUsage | None:
    """The usage of the session at `path`; None if it is not a session (Pi's listing rule).

    Only complete lines count (a last line without a newline may be a write in progress)."""
    return usage_of_bytes(read_regular(path))


def usage_of_bytes(data: bytes) -> FileUsage | None:
    end = data.rfind(b"\n") + 1  # complete lines only
    result: FileUsage | None = None
    start = 0
    while result is None:
        if start >= end:
            return None
        stop = data.index(b"\n", start)
        header = _header(data[start:stop])
        if header is False:
            return None  # the first parsed line must be a session header
        result = header
        start = stop + 1
    born = _Birth(result.created_ms, result.created_iso)
    counted: dict[str, Counted] = {}
    day_of = _DayCache()
    for first in _candidates(data, start, end):
        item = _count(data[first : data.index(b"\n", first)], first, day_of, born)
        if item is not None:
            counted[item.key] = item
    for item in counted.values():
        _add(result, item)
    return result


def _candidates(data: bytes, start: int, end: int) -> list[int]:
    """Where the lines that may count begin (they hold "usage" or "assistant"), in order:
    found by searching the whole buffer, so other lines cost nothing."""
    found: set[int] = set()
    for needle in (b'"usage"', b'"assistant"'):
        at = data.find(needle, start, end)
        while at >= 0:
            found.add(data.rfind(b"\n", start, at) + 1 if at > start else start)
            after = data.find(b"\n", at, end)
            at = data.find(needle, after, end) if after >= 0 else -1
    return sorted(p if p > start else start for p in found)


def _header(line: bytes) -> FileUsage | Literal[False] | None:
    """The header's facts; None for a line that is blank or not JSON (skipped, as Pi skips
    it), False for a parsed line that is not a header."""
    if not line.strip():
        return None
    try:
        header = _decode_header(line)
    except (msgspec.DecodeError, RecursionError):  # RecursionError: nested past msgspec's
        try:
            raw = parse_line(line)  # as JSON.parse reads it (nesting thousands deep too)
        except LineError:
            return None
        if not isinstance(raw, dict):
            return False
        header = UsageHeader(**{k: raw.get(k) for k in UsageHeader.__struct_fields__})
    if header.type != EntryType.SESSION or not isinstance(header.id, str):
        return False
    cwd = header.cwd if isinstance(header.cwd, str) else ""
    parent = header.parentSession if isinstance(header.parentSession, str) else None
    iso = header.timestamp if isinstance(header.timestamp, str) else None
    return FileUsage(header.id, cwd, parent or None, _ms(header.timestamp), iso)


class _Birth:
    """When the file's header says it was made, to tell copied entries (dated before)."""

    def __init__(self, ms: int | None, iso: str | None) -> None:
        self.ms = ms
        self.iso = iso if iso and _is_plain_iso(iso) else None

    def copy_ms(self, timestamp: Any) -> int | None:
        """The entry's time if it is before the header's, else None."""
        if self.ms is None:
            return None
        plain = self.iso is not None and isinstance(timestamp, str) and _is_plain_iso(timestamp)
        if plain and timestamp >= self.iso:  # same fixed format: text order is time order
            return None
        ms = _ms(timestamp)
        return ms if ms is not None and ms < self.ms else None


def _is_plain_iso(text: str) -> bool:
    """`toISOString()`'s own format (YYYY-MM-DDTHH:MM:SS.sssZ)."""
    return len(text) == 24 and text[23] == "Z" and text[10] == "T" and text[4] == "-"


def _add(result: FileUsage, item: Counted) -> None:
    if item.copy_ms is not None:
        result.copies.append(item)
        return
    bucket = result.buckets.get((item.day, item.provider, item.model))
    if bucket is None:
        bucket = result.buckets[(item.day, item.provider, item.model)] = [0] * NUMBERS
    added = [total + value for total, value in zip(bucket, item.values, strict=True)]
    if all(map(math.isfinite, added)):
        bucket[:] = added
    else:  # summed as Pi sums (Infinity) only in memory: JSON, the cache's, has no Infinity
        result.copies.append(item)


def _count(line: bytes, number: int, day_of: _DayCache, born: _Birth) -> Counted | None:
    entry: UsageLine | None
    try:
        entry = _decode_line(line)
    except (msgspec.DecodeError, RecursionError):
        entry = _generic(line)
        if entry is None:
            return None
    found = _attribution(entry)
    if found is None:
        return None
    provider, model, usage, is_reply, when = found
    if type(when) is not int:
        when = _ms(when) if when is not None else None
        if when is None:
            when = _ms(entry.timestamp)
    values = (1 if is_reply else 0, *_numbers(usage))
    key = entry.id if isinstance(entry.id, str) else f"@{number}"
    copy_ms = born.copy_ms(entry.timestamp)
    return Counted(key, copy_ms, day_of(when), provider, model, values)


Attribution = tuple[str, str, UsageCounts | None, bool, Any]


def _attribution(entry: UsageLine) -> Attribution | None:
    """(provider, model, usage, is an assistant reply, its time) of a counted entry."""
    kind = entry.type
    attribution = _ATTRIBUTIONS.get(kind) if isinstance(kind, str) else None
    return None if attribution is None else attribution(entry)


def _message_attribution(entry: UsageLine) -> Attribution | None:
    message = entry.message
    if message is None:
        return None
    if message.role == "assistant":
        model = message.responseModel if message.responseModel is not None else message.model
        return _text(message.provider), _text(model), message.usage, True, message.timestamp
    if message.role == "toolResult" and message.usage is not None:
        return "", TOOLS_MODEL, message.usage, False, message.timestamp
    return None


def _usage_attribution(entry: UsageLine) -> Attribution | None:
    if entry.usage is None:
        return None
    return _text(entry.provider), _text(entry.model), entry.usage, False, None


def _summary_attribution(entry: UsageLine) -> Attribution | None:
    return None if entry.usage is None else ("", TOOLS_MODEL, entry.usage, False, None)


# Whose usage each entry type counts (another type counts none).
_ATTRIBUTIONS: dict[str, Callable[[UsageLine], Attribution | None]] = {
    EntryType.MESSAGE: _message_attribution,
    EntryType.USAGE: _usage_attribution,
    EntryType.COMPACTION: _summary_attribution,
    EntryType.BRANCH_SUMMARY: _summary_attribution,
}


def _generic(line: bytes) -> UsageLine | None:
    """A line the typed decoder refused (odd field types, nested past its limit): read it
    whole as JSON.parse does, keep what fits."""
    try:
        raw = parse_line(line)
    except LineError:
        return None
    if not isinstance(raw, dict):
        return None
    message = raw.get("message")
    return UsageLine(
        type=raw.get("type"),
        id=raw.get("id"),
        timestamp=raw.get("timestamp"),
        message=_to_message(message) if isinstance(message, dict) else None,
        usage=_to_usage(raw.get("usage")),
        provider=raw.get("provider"),
        model=raw.get("model"),
    )


def _to_message(raw: dict[str, Any]) -> UsageMessage:
    names = ("role", "provider", "model", "responseModel", "timestamp")
    return UsageMessage(usage=_to_usage(raw.get("usage")), **{k: raw.get(k) for k in names})


def _to_usage(raw: Any) -> UsageCounts | None:
    if not isinstance(raw, dict):
        return None
    return UsageCounts(
        **{k: raw.get(k, 0) for k in ("input", "output", "cacheRead", "cacheWrite")},
        cost=raw.get("cost"),
    )


def _numbers(usage: UsageCounts | None) -> tuple[float, float, float, float, float]:
    if usage is None:
        return (0, 0, 0, 0, 0.0)
    cost = usage.cost.get("total") if isinstance(usage.cost, dict) else None
    return (
        _num(usage.input),
        _num(usage.output),
        _num(usage.cacheRead),
        _num(usage.cacheWrite),
        float(_num(cost)),
    )


def _num(value: Any) -> float:
    """A finite number, else 0 (Pi would add NaN and lose the whole total); an integer past
    2**53 as the double JSON.parse makes of it (exact below)."""
    kind = type(value)
    if kind is int:
        if -_EXACT <= value <= _EXACT:
            return value
        try:
            return float(value)
        except OverflowError:  # Infinity for JSON.parse: not finite
            return 0
    if kind is float and math.isfinite(value):
        return value
    return 0


_EXACT = 2**53


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _ms(value: Any) -> int | None:
    ms = to_ms(value)
    return None if ms is None else int(ms)


class _DayCache:
    """The local calendar day of a time, memoised per quarter hour (every time zone's offset
    is a whole number of quarter hours)."""

    def __init__(self) -> None:
        self._hours: dict[int, str] = {}

    def __call__(self, ms: int | None) -> str:
        if ms is None:
            return ""
        hour = ms // 900_000
        day = self._hours.get(hour)
        if day is None:
            try:
                day = time.strftime("%Y-%m-%d", time.localtime(ms / 1000))
            except (OverflowError, OSError, ValueError):
                day = ""
            self._hours[hour] = day
        return day
