"""The usage table fitted to its width: at 60 columns a day's date and cost stay whole, the
columns least asked for go first (they were cut to "2026-11…" and "$0.…", "Cache R" wrapped)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from pitui.core.usage.groups import Group, Stats
from pitui.ui.widgets.usage_table import usage_table


def drawn(width: int) -> list[str]:
    day = Group("2026-11-29", {"s1", "s2"}, 7, 161, 6300, 361_900, 13_900, 1234.5678)
    total = Group("TOTAL", day.sessions, 7, 161, 6300, 361_900, 13_900, 1234.5678)
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(usage_table(Stats("day", [day], total), width))
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [44, 50, 60, 70, 80, 120])
def test_every_shown_cell_is_whole_at_any_width(width: int) -> None:
    header, row, total = drawn(width)  # three lines: no header wrapped onto a second
    assert "…" not in header
    assert row.split()[0] == "2026-11-29" and row.split()[-1] == "$1,234.57"
    assert "…" not in row and all(len(line) <= width for line in (header, row, total))


def test_the_cache_columns_go_before_the_counts() -> None:
    assert "Cache W" not in drawn(60)[0] and "Cache R" in drawn(60)[0]
    assert drawn(44)[0].split() == ["DAY", "Sess", "Input", "Output", "Cost"]


def test_a_table_of_thousands_of_groups_draws_the_first_500() -> None:
    """By session at 10,000 sessions the table took 22 s to lay out, the app frozen: the
    costliest 500 are drawn (the latest 500 days by day), the rest counted, the total whole."""
    sessions = [
        Group(f"/s/{i:05d}.jsonl", {f"s{i}"}, 1, 10, 10, 0, 0, 10_000 - i) for i in range(600)
    ]
    total = Group("TOTAL", {f"s{i}" for i in range(600)}, 600, 6000, 6000, 0, 0, 1.0)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(usage_table(Stats("project", sessions, total), 120))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 1 + 500 + 2  # the header, 500 groups, the rest counted, the total
    assert lines[1].split()[0] == "/s/00000.jsonl" and lines[500].split()[0] == "/s/00499.jsonl"
    assert lines[-2].split()[0] == "+100" and lines[-1].split()[0] == "TOTAL"
    days = [
        Group(f"2026-{i // 28 + 1:02d}-{i % 28 + 1:02d}", {"s"}, 1, 1, 1, 0, 0, 1.0)
        for i in range(336)
    ]
    days = days + [
        Group(f"2027-{i // 28 + 1:02d}-{i % 28 + 1:02d}", {"s"}, 1, 1, 1, 0, 0, 1.0)
        for i in range(336)
    ]
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(usage_table(Stats("day", days, total), 120))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[-3].split()[0] == days[-1].key  # the latest kept
    assert lines[-2].split()[:2] == ["+172", "earlier"]
