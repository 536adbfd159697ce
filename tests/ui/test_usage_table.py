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
