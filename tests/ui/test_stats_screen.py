"""Pilot tests of the stats screen (alt+s: the picker's list, its search and scope) and the
trash view (alt+z: restore)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_picker import search, started
from textual_plotext import PlotextPlot
from ui_helpers import screen_lines, settle
from waiting import wait_for

from pitui.core.changes import trash
from pitui.core.usage.groups import summarize
from pitui.core.usage.load import load_usage
from pitui.ui.screens.stats import StatsScreen
from pitui.ui.screens.trash_view import TrashViewScreen

SIZE = (160, 48)


async def _stats(pilot: Any) -> StatsScreen:
    await pilot.press("alt+s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, StatsScreen))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.stats is not None)
    await settle(pilot)
    return screen


async def test_stats_follow_the_pickers_list(app_factory: Any, demo_root: Path) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        every = [r.summary.path for r in picker.rows]
        screen = await _stats(pilot)
        expected = summarize(*load_usage(every, no_cache=True)[:2], "day")
        assert screen.stats.total.cost == pytest.approx(expected.total.cost)
        assert screen.stats.total.messages == expected.total.messages > 0
        assert screen.query_one("#plot-cost-day", PlotextPlot).region.height > 0
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.stats.by == "week")
        await pilot.press("b", "b")
        await wait_for(pilot, lambda: screen.stats.by == "model")
        assert screen.stats.total.cost == pytest.approx(expected.total.cost)
        assert all("/" in g.key for g in screen.stats.groups)
        titles = {c.title for c in pilot.app.get_system_commands(picker)}
        offered = {  # the palette offers both, with their keys
            "Usage and cost of the listed sessions (alt+s)",
            "Sessions in the trash, with restore (alt+z)",
        }
        assert offered <= titles, titles
        await pilot.press("escape")
        await search(pilot, picker, "checkout")
        some = [r.summary.path for r in picker.rows]
        assert 0 < len(some) < len(every)
        screen = await _stats(pilot)
        assert "search: checkout" in str(screen.query_one("#stats-title").render())
        part = summarize(*load_usage(some, no_cache=True)[:2], "day")
        assert screen.stats.total.cost == pytest.approx(part.total.cost)
        assert part.total.cost < expected.total.cost


async def test_the_usage_read_so_far_is_shown_while_it_is_worked_out(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold usage cache reads every session (10,000: about 14 s): the screen counts them."""
    from pitui.ui.screens import stats

    release = threading.Event()

    def slow_load(paths: list[str], **options: Any) -> Any:
        options["progress"](0, len(paths))  # the first is never said (no time has passed)
        time.sleep(stats.PROGRESS_EVERY)
        options["progress"](2, len(paths))
        release.wait(10)
        return load_usage(paths, no_cache=True)

    monkeypatch.setattr(stats, "load_usage", slow_load)
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        count = len(picker.rows)
        await pilot.press("alt+s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, StatsScreen))
        shown = f"Working out usage… read 2 of {count:,} sessions"
        await wait_for(pilot, lambda: shown in "\n".join(screen_lines(pilot.app)))
        release.set()
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.stats is not None)
        await settle(pilot)
        assert "Working out" not in "\n".join(screen_lines(pilot.app))


async def test_leaving_or_regrouping_stops_the_usage_read(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc, or another grouping, while the usage is worked out stops that read (it would hold
    the CPU, and the GIL, from the picker for seconds at 10,000 sessions); the new grouping's
    read goes on to its table."""
    from pitui.ui.screens import stats

    reading, stopped = threading.Event(), threading.Event()
    calls: list[int] = []

    def endless_load(paths: list[str], **options: Any) -> Any:
        calls.append(1)
        reading.clear()
        try:
            for done in range(10_000 if len(calls) % 2 else 3):  # the second read ends
                options["progress"](done, 10_000)
                reading.set()
                time.sleep(0.01)
        except BaseException:
            stopped.set()
            raise
        return load_usage(paths, no_cache=True)

    monkeypatch.setattr(stats, "load_usage", endless_load)
    async with app_factory().run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("alt+s")
        screen = pilot.app.screen
        await wait_for(pilot, reading.is_set)
        await pilot.press("b")
        await wait_for(pilot, stopped.is_set)
        await wait_for(pilot, lambda: screen.stats is not None and screen.stats.by == "week")
        stopped.clear()
        await pilot.press("b")  # a third read, endless: left by Esc
        await wait_for(pilot, reading.is_set)
        await pilot.press("escape")
        await wait_for(pilot, stopped.is_set)
        assert not isinstance(pilot.app.screen, StatsScreen)


async def _group_by(pilot: Any, screen: StatsScreen, by: str) -> None:
    while screen.by != by:
        await pilot.press("b")
    await wait_for(pilot, lambda: screen.stats is not None and screen.stats.by == by)
    await settle(pilot)


async def test_by_session_names_each_session_at_80_columns(app_factory: Any) -> None:
    """A session's row: its name or first message, then its path cut in the middle; every
    number whole (compact units, no ellipsis)."""
    async with app_factory(home="/nowhere").run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        summaries = {r.summary.path: r.summary for r in picker.rows}
        screen = await _stats(pilot)
        await _group_by(pilot, screen, "session")
        lines = [line.rstrip("▁▃▅▇█ ") for line in screen_lines(pilot.app)]
        first = screen.stats.groups[0]
        summary = summaries[first.key]
        title = summary.name or summary.first_message
        at = next(i for i, line in enumerate(lines) if line.strip().startswith(title[:16]))
        path = lines[at + 1].strip()
        assert "…" in path and path.startswith("/") and first.key.endswith(path.split("…")[1])
        paths = [line.strip() for line in lines if line.strip().endswith(".jsonl")]
        assert len(paths) == len(set(paths)) > 3  # not the same cut path on every row
        numbers = lines[at].split()[-7:]
        assert numbers[-1] == f"${first.cost:,.2f}" and not any("…" in n for n in numbers)
        header = next(line for line in lines if "Sess" in line).split()
        assert header[1:3] == ["Sess", "Replies"], "assistant replies: the list's Msgs are all"


async def test_day_plots_show_every_label_and_separate_bars_at_80_columns(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(80, 50)) as pilot:
        await started(pilot)
        screen = await _stats(pilot)
        days = [g.key[5:] for g in screen.stats.groups]
        assert len(days) > 3
        lines = screen_lines(pilot.app)
        plot = screen.query_one("#plot-cost-day", PlotextPlot).region
        drawn = lines[plot.y : plot.bottom]
        assert all(sum(day in line for line in drawn) == 1 for day in days)
        bottom = next(i for i, line in enumerate(drawn) if "└" in line) - 1
        bars = [run for run in drawn[bottom].split("┤")[-1].strip("│ ").split(" ") if run]
        assert len(bars) == len(days)  # a gap between each two bars


@pytest.mark.usefixtures("home_trash")
async def test_an_empty_trash_view_says_so(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        note = pilot.app.screen.query_one("#trash-note")
        await wait_for(pilot, lambda: "no Pi session" in str(note.render()))


@pytest.mark.usefixtures("home_trash")
async def test_trash_view_restores(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        victim = Path(picker.rows[0].summary.path)
        content = victim.read_bytes()
        trash.trash_session(victim)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        await wait_for(pilot, lambda: len(view.items) == 1)
        assert view.items[0].original == victim
        await pilot.press("enter")
        await wait_for(pilot, lambda: victim.exists())
        await settle(pilot)
        assert victim.read_bytes() == content
        await wait_for(pilot, lambda: view.items == [])
        await pilot.press("escape")
        assert pilot.app.screen is picker
