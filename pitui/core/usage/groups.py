"""Usage summed per group (day, week, month, model, provider, project, session).

A copied reply (an entry a fork dated before its own header: see `extract`) counts in the
fork only when the fork's parent file is gone; while the parent exists it counts there (or,
if the parent is itself a fork that copied it, in the first ancestor that made it or whose
parent is gone). So each reply counts in one file, whatever the scope asked about.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date

from pitui.core.usage.cache import Row, SessionInfo

GROUPINGS = ("day", "week", "month", "model", "provider", "project", "session")
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

    def add(self, row: Row) -> None:
        self.sessions.add(row[0])
        self.messages += int(row[5])
        self.input += row[6]
        self.output += row[7]
        self.cache_read += row[8]
        self.cache_write += row[9]
        self.cost += row[10]

    @property
    def tokens(self) -> float:
        return self.input + self.output + self.cache_read + self.cache_write

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "sessions": len(self.sessions),
            "assistantMessages": self.messages,
            "input": int(self.input),
            "output": int(self.output),
            "cacheRead": int(self.cache_read),
            "cacheWrite": int(self.cache_write),
            "totalTokens": int(self.tokens),
            "cost": round(self.cost, 10),
        }


@dataclass
class Stats:
    by: str
    groups: list[Group]
    total: Group


def counted_rows(
    infos: dict[str, SessionInfo],
    rows: Iterable[Row],
    exists: Callable[[str], bool] = os.path.isfile,
) -> list[Row]:
    """The rows that count: native ones, and copies whose fork's parent is gone."""
    orphan: dict[str, bool] = {}
    out: list[Row] = []
    for row in rows:
        if row[4] is not None:
            path = row[0]
            keep = orphan.get(path)
            if keep is None:
                parent = infos[path].parent
                keep = orphan[path] = parent is None or not exists(parent)
            if not keep:
                continue
        out.append(row)
    return out


def summarize(
    infos: dict[str, SessionInfo],
    rows: Iterable[Row],
    by: str = "day",
    since: str | None = None,
    until: str | None = None,
) -> Stats:
    """Group the counted rows by `by`; `since`/`until` are inclusive YYYY-MM-DD local days."""
    key_of = _key_function(by, infos)
    groups: dict[str, Group] = {}
    total = Group("total")
    for row in counted_rows(infos, rows):
        day = row[1]
        if (since or until) and (not day or (since and day < since) or (until and day > until)):
            continue
        key = key_of(row)
        group = groups.get(key)
        if group is None:
            group = groups[key] = Group(key)
        group.add(row)
        total.add(row)
    ordered = list(groups.values())
    if by in BY_TIME:
        ordered.sort(key=lambda g: (g.key == NO_DATE, g.key))
    else:
        ordered.sort(key=lambda g: (-g.cost, -g.tokens, g.key))
    return Stats(by, ordered, total)


def _key_function(by: str, infos: dict[str, SessionInfo]) -> Callable[[Row], str]:
    if by == "day":
        return lambda r: r[1] or NO_DATE
    if by == "month":
        return lambda r: r[1][:7] or NO_DATE
    if by == "week":
        weeks: dict[str, str] = {}
        return lambda r: weeks.get(r[1]) or weeks.setdefault(r[1], _week(r[1]))
    if by == "model":
        return lambda r: f"{r[2]}/{r[3]}" if r[2] else (r[3] or "(unknown)")
    if by == "provider":
        return lambda r: r[2] or "(none)"
    if by == "project":
        return lambda r: infos[r[0]].cwd or "(no cwd)"
    if by == "session":
        return lambda r: r[0]
    raise ValueError(f"unknown grouping {by!r}")


def _week(day: str) -> str:
    """ISO week of a YYYY-MM-DD day, as 2026-W05."""
    try:
        year, week, _ = date.fromisoformat(day).isocalendar()
    except ValueError:
        return NO_DATE
    return f"{year}-W{week:02d}"
