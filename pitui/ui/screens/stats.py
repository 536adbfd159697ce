"""Usage of the sessions the picker shows (its search and scope): a table and plots of cost
and tokens per day and per model. The numbers are worked out in a thread worker."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker
from textual_plotext import PlotextPlot

from pitui.core.rows.safe_text import one_line
from pitui.core.usage.groups import GROUPINGS, Group, Stats, summarize
from pitui.core.usage.load import load_usage
from pitui.ui.app_base import PituiAppBase
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.widgets.fitting_footer import FittingFooter
from pitui.ui.widgets.usage_table import COMPACT_UNITS, UsageTable

PROGRESS_EVERY = 0.2  # seconds between the worker's progress messages
MAX_BARS = 12  # per plot: the latest days, the costliest models
Y_AXIS = 8  # columns of a plot's y axis and frame
LABEL_ROOM = {"day": 7, "model": 16}  # columns a bar's label takes ("11-25"; 14), with a gap
PLOTS: tuple[tuple[str, str, Callable[[Group], float]], ...] = (
    ("cost", "Cost per {} ($)", lambda g: g.cost),
    ("tokens", "Tokens per {}", lambda g: g.tokens),
)
Y_STEPS = 4  # at most, from 0 to the tallest bar's value or just above


class _Left(Exception):
    """The usage is no longer wanted: its read stops (see `StatsScreen._say_read`)."""


@dataclass
class UsageRead(Message):
    """How many of the sessions' usage the worker has read (a cold cache reads them all)."""

    done: int
    total: int


@dataclass
class StatsReady(Message):
    """The stats of one grouping, with the per-day and per-model sums for the plots."""

    table: Stats
    by_day: Stats
    by_model: Stats
    notice: str | None


class StatsScreen(ReportsFailures, Screen[None]):
    """Usage of `paths` (the picker's current list), described by `scope`; `titles` name the
    sessions (by path) when grouped by session. Below 120 columns the plots stack."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "b",
            "cycle_grouping",
            "Group by",
            id="stats.group",
            tooltip="Day / week / month / model / provider / project / session",
        ),
        Binding("escape,q", "close", "Back", id="stats.close", tooltip="Back to the picker"),
    ]

    DEFAULT_CSS = """
    #stats-title { height: 1; padding: 0 1; background: $boost; }
    #stats-table { padding: 0 1; }
    #stats-plots { height: 1fr; scrollbar-size-vertical: 1; }
    .stats-plots { height: auto; }
    .stats-plot { width: 1fr; height: 14; }
    StatsScreen.-narrow .stats-plots { layout: vertical; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012 (Screen: an instance variable)
    app = getters.app(PituiAppBase)

    def __init__(
        self,
        paths: list[str],
        scope: str,
        cache_folder: Path | None,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(id="stats")
        self.paths = paths
        self.titles = titles or {}
        self.scope = scope
        self.cache_folder = cache_folder
        self.by = "day"
        self.stats: Stats | None = None
        self._sums: tuple[Stats, Stats] | None = None  # per day, per model: the plots

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Usage · {self.scope}", style="bold"), id="stats-title")
        # the table stays on screen, its heading on top of its rows (which scroll in their
        # own box); the plots scroll below it: when the whole screen scrolled as one, a long
        # table's heading left the screen, and `b` regrouped a table scrolled out of sight
        yield UsageTable(self.app.config.home, id="stats-table")
        with VerticalScroll(id="stats-plots"):
            with Horizontal(id="stats-plots-day", classes="stats-plots"):
                yield PlotextPlot(id="plot-cost-day", classes="stats-plot")
                yield PlotextPlot(id="plot-tokens-day", classes="stats-plot")
            with Horizontal(id="stats-plots-model", classes="stats-plots"):
                yield PlotextPlot(id="plot-cost-model", classes="stats-plot")
                yield PlotextPlot(id="plot-tokens-model", classes="stats-plot")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.compute()

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_cycle_grouping(self) -> None:
        self.by = GROUPINGS[(GROUPINGS.index(self.by) + 1) % len(GROUPINGS)]
        self.compute()

    @thread_worker("stats", "usage", exclusive=True)
    def compute(self) -> None:
        try:
            usage = load_usage(
                self.paths,
                folder=self.cache_folder,
                no_cache=self.cache_folder is None,
                progress=self._say_read(),
            )
        except _Left:  # Textual has marked the worker cancelled already: end it quietly
            return
        infos, rows, lineage = usage.infos, usage.rows, usage.lineage
        ready = StatsReady(
            summarize(infos, rows, self.by, lineage=lineage),
            summarize(infos, rows, "day", lineage=lineage),
            summarize(infos, rows, "model", lineage=lineage),
            usage.notice,
        )
        if not get_current_worker().is_cancelled:
            self.post_message(ready)

    def _say_read(self) -> Callable[[int, int], None]:
        """The worker's progress, posted at most every `PROGRESS_EVERY` seconds; once the
        worker is cancelled (the screen left, another grouping asked, the app quitting) the
        read stops, what it read kept in the cache for the next time."""
        worker = get_current_worker()
        said = time.monotonic()

        def progress(done: int, total: int) -> None:
            nonlocal said
            if worker.is_cancelled:
                raise _Left
            now = time.monotonic()
            if now - said >= PROGRESS_EVERY:
                said = now
                self.post_message(UsageRead(done, total))

        return progress

    def on_usage_read(self, message: UsageRead) -> None:
        table = self.query_one(UsageTable)
        if table.stats is None:
            table.working(message.done, message.total)

    def on_stats_ready(self, message: StatsReady) -> None:
        if message.table.by != self.by:
            return  # an answer for a grouping no longer shown
        self.stats = message.table
        if message.notice:
            self.notify(one_line(message.notice), severity="warning", markup=False)
        self.query_one(UsageTable).show(message.table, self.titles)
        self._sums = (message.by_day, message.by_model)
        self._draw_plots()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._draw_plots)  # as many bars as the new widths hold

    def _draw_plots(self) -> None:
        """Each plot shows the bars whose labels fit its width (the latest days, the costliest
        models), so that no label is dropped and the bars keep a gap between them."""
        if self._sums is None:
            return
        by_day, by_model = self._sums
        for kind, groups in (("day", by_day.groups), ("model", by_model.groups)):
            for what, heading, value in PLOTS:
                widget = self.query_one(f"#plot-{what}-{kind}", PlotextPlot)
                fit = max(1, (widget.size.width - Y_AXIS) // LABEL_ROOM[kind])
                count = min(MAX_BARS, fit)
                shown = groups[-count:] if kind == "day" else groups[:count]
                title = heading.format(kind)
                if len(shown) < len(groups):
                    title += f" · {'latest' if kind == 'day' else 'top'} {len(shown)}"
                labels = [g.key[5:] if kind == "day" else _short(g.key) for g in shown]
                _bars(widget, title, labels, [value(g) for g in shown])


def _bars(widget: PlotextPlot, title: str, labels: list[str], values: list[float]) -> None:
    plt = widget.plt
    plt.clear_data()
    plt.clear_figure()
    plt.title(title)
    if values:
        plt.bar([one_line(label) for label in labels], values)
    if max(values, default=0) > 0:
        ticks = _y_ticks(max(values))
        plt.ylim(0, ticks[-1])
        plt.yticks(ticks, [_tick_label(tick) for tick in ticks])
    widget.refresh()


def _y_ticks(top: float) -> list[float]:
    """Round values from 0 to `top` or just above it, a round step apart: 0, 2G, 4G, 6G, 8G
    for 7,008,584,800 (plotext's own ticks are the axis cut in equal parts: 7008584.8)."""
    step = _round_step(top / Y_STEPS)
    return [index * step for index in range(math.ceil(top / step - 1e-9) + 1)]


def _round_step(rough: float) -> float:
    """The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least `rough`."""
    power = 10.0 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= rough * (1 - 1e-9))


def _tick_label(value: float) -> str:
    """A round value in at most five characters: 0, 0.05, 250, 7.5k, 12.5M, 2G."""
    for limit, unit in COMPACT_UNITS:
        if value >= limit:
            return f"{value / limit:.3g}{unit}"
    return f"{value:.3g}"


def _short(model: str) -> str:
    """A model's name without its provider, at most 14 characters (plot labels are narrow)."""
    name = model.rsplit("/", 1)[-1]
    return name if len(name) <= 14 else name[:13] + "…"
