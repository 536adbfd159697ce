"""Usage summed per group (day, week, month, model, provider, project, session).

A copied reply (an entry a fork dated before its own header: see `extract`) counts in the
first file of its lineage still present, oldest first: in the session that made it while that
file exists, else in the oldest fork that copied it (`counted_rows`). So each reply counts in
one file, whatever the scope asked about.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pitui.core.format.jsvalues import js_number_string
from pitui.core.usage.cache import (
    CACHE_READ,
    CACHE_WRITE,
    COPY_MS,
    COST,
    DAY,
    INPUT,
    MESSAGES,
    MODEL,
    OUTPUT,
    PATH,
    PROVIDER,
    Row,
    SessionInfo,
)
from pitui.core.usage.groupings import GROUPINGS

__all__ = ["BY_TIME", "GROUPINGS", "NO_DATE", "Group", "Stats", "counted_rows", "summarize"]
BY_TIME = ("day", "week", "month")
NO_DATE = "(no date)"


@dataclass
class Group:
    """One line of the table: its key, the sessions in it and the sums of their usage."""

    key: str
    sessions: set[str] = field(default_factory=set)
    messages: int = 0
    input: float = 0
    output: float = 0
    cache_read: float = 0
    cache_write: float = 0
    cost: float = 0.0

    @property
    def tokens(self) -> float:
        return self.input + self.output + self.cache_read + self.cache_write

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "sessions": len(self.sessions),
            "assistantMessages": self.messages,
            "input": json_number(self.input),
            "output": json_number(self.output),
            "cacheRead": json_number(self.cache_read),
            "cacheWrite": json_number(self.cache_write),
            "totalTokens": json_number(self.tokens),
            "cost": round(self.cost, 10) if math.isfinite(self.cost) else None,
        }


def json_number(value: float) -> int | float | None:
    """A sum as JSON.stringify writes the JavaScript number Pi's sum is: an integral value
    below 1e21 as its digits (never a 309-digit integer: 1e308 is the float `1e+308`), a
    fraction as it is, null where it is not finite (Infinity, NaN)."""
    if type(value) is int and -_EXACT <= value <= _EXACT:
        return value
    try:
        value = float(value)
    except OverflowError:
        return None
    if not math.isfinite(value):
        return None
    text = js_number_string(value)
    return int(text) if text.lstrip("-").isdigit() else value


_EXACT = 2**53


@dataclass
class Stats:
    by: str
    groups: list[Group]
    total: Group


def counted_rows(
    infos: dict[str, SessionInfo],
    rows: Iterable[Row],
    exists: Callable[[str], bool] = os.path.isfile,
    lineage: dict[str, list[Any]] | None = None,
) -> list[Row]:
    """The rows that count: native ones, and copies that no ancestor still present holds.

    A copy made at time t in fork F came from F's parent P, or from P's ancestors if P copied
    it too (t before P's own header). Walking up from F: an ancestor still present holds it
    (it counts there); a gone ancestor created before t made it (it counts in F); a gone one
    created after t passes it on from its own parent (`lineage` remembers gone files)."""
    lineage = lineage or {}
    chains: dict[str, list[tuple[bool, int | None]]] = {}
    out: list[Row] = []
    for row in rows:
        when = row[COPY_MS]
        if when is not None:
            chain = chains.get(row[PATH])
            if chain is None:
                chain = chains[row[PATH]] = _chain(row[PATH], infos, exists, lineage)
            if not _counts_here(chain, when):
                continue
        out.append(row)
    return out


def _chain(
    path: str,
    infos: dict[str, SessionInfo],
    exists: Callable[[str], bool],
    lineage: dict[str, list[Any]],
) -> list[tuple[bool, int | None]]:
    """(present, created_ms) of each ancestor, up to the first present or unknown one."""
    chain: list[tuple[bool, int | None]] = []
    seen = {path}
    ancestor = infos[path].parent
    while ancestor and ancestor not in seen:
        seen.add(ancestor)
        if exists(ancestor):
            chain.append((True, None))
            break
        facts = lineage.get(ancestor)
        if not isinstance(facts, list) or len(facts) != 2:
            chain.append((False, None))
            break
        chain.append((False, facts[1] if isinstance(facts[1], int) else None))
        ancestor = facts[0] if isinstance(facts[0], str) else None
    return chain


def _counts_here(chain: list[tuple[bool, int | None]], when: int) -> bool:
    for present, created in chain:
        if present:
            return False
        if created is None or when >= created:
            return True
    return True


def summarize(
    infos: dict[str, SessionInfo],
    rows: Iterable[Row],
    by: str = "day",
    since: str | None = None,
    until: str | None = None,
    lineage: dict[str, list[Any]] | None = None,
    exists: Callable[[str], bool] = os.path.isfile,
) -> Stats:
    """Group the counted rows by `by`; `since`/`until` are inclusive YYYY-MM-DD local days.
    `exists` says whether an ancestor of a fork is still present (see `counted_rows`)."""
    key_of = _key_function(by, infos)
    sums: dict[str, list[float]] = {}
    sessions: dict[str, set[str]] = {}
    dated = since is not None or until is not None
    for row in counted_rows(infos, rows, exists, lineage):
        if dated:
            day = row[DAY]
            if not day or (since and day < since) or (until and day > until):
                continue
        key = key_of(row)
        acc = sums.get(key)
        if acc is None:
            acc = sums[key] = [0, 0, 0, 0, 0, 0.0]
            sessions[key] = set()
        sessions[key].add(row[PATH])
        acc[0] += row[MESSAGES]
        acc[1] += row[INPUT]
        acc[2] += row[OUTPUT]
        acc[3] += row[CACHE_READ]
        acc[4] += row[CACHE_WRITE]
        acc[5] += row[COST]
    groups = [Group(key, sessions[key], *_ints(acc)) for key, acc in sums.items()]
    total = Group("total", set().union(*sessions.values()) if sessions else set())
    for g in groups:
        total.messages += g.messages
        total.input += g.input
        total.output += g.output
        total.cache_read += g.cache_read
        total.cache_write += g.cache_write
        total.cost += g.cost
    if by in BY_TIME:
        groups.sort(key=lambda g: (g.key == NO_DATE, g.key))
    else:
        groups.sort(key=lambda g: (-g.cost, -g.tokens, g.key))
    return Stats(by, groups, total)


def _ints(acc: list[float]) -> tuple[int, float, float, float, float, float]:
    return int(acc[0]), acc[1], acc[2], acc[3], acc[4], acc[5]


def _key_function(by: str, infos: dict[str, SessionInfo]) -> Callable[[Row], str]:
    if by == "day":
        return lambda r: r[DAY] or NO_DATE
    if by == "month":
        return lambda r: r[DAY][:7] or NO_DATE
    if by == "week":
        weeks: dict[str, str] = {}
        return lambda r: weeks.get(r[DAY]) or weeks.setdefault(r[DAY], _week(r[DAY]))
    if by == "model":
        return lambda r: f"{r[PROVIDER]}/{r[MODEL]}" if r[PROVIDER] else (r[MODEL] or "(unknown)")
    if by == "provider":
        return lambda r: r[PROVIDER] or "(none)"
    if by == "project":
        return lambda r: infos[r[PATH]].cwd or "(no cwd)"
    if by == "session":
        return lambda r: r[PATH]
    raise ValueError(f"unknown grouping {by!r}")


def _week(day: str) -> str:
    """ISO week of a YYYY-MM-DD day, as 2026-W05."""
    try:
        year, week, _ = date.fromisoformat(day).isocalendar()
    except ValueError:
        return NO_DATE
    return f"{year}-W{week:02d}"
