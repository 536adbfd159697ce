"""Usage of the sessions the picker shows (its search and scope): a table and plots of cost
and tokens per day and per model. The numbers are worked out in a thread worker."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker
from textual_plotext import PlotextPlot

from pitui.core.rows.safe_text import one_line
from pitui.core.usage.groups import GROUPINGS, Stats, summarize
from pitui.core.usage.load import load_usage
from pitui.ui.failures import ReportsFailures

MAX_BARS = 12  # per plot: the latest days, the costliest models


@dataclass
class StatsReady(Message):
    """The stats of one grouping, with the per-day and per-model sums for the plots."""

    table: Stats
    by_day: Stats
    by_model: Stats
    notice: str | None


class StatsScreen(ReportsFailures, Screen[None]):
    """Usage of `paths` (the picker's current list), described by `scope`."""

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
    #stats-table { padding: 0 1; height: auto; }
    .stats-plots { height: 14; }
    .stats-plot { width: 1fr; height: 14; }
    """

    def __init__(self, paths: list[str], scope: str, cache_folder: Path | None) -> None:
        super().__init__(id="stats")
        self.paths = paths
        self.scope = scope
        self.cache_folder = cache_folder
        self.by = "day"
        self.stats: Stats | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Usage · {self.scope}", style="bold"), id="stats-title")
        with VerticalScroll(id="stats-body"):
            yield Static(Text("Working out usage…", style="dim"), id="stats-table")
            with Horizontal(id="stats-plots-day", classes="stats-plots"):
                yield PlotextPlot(id="plot-cost-day", classes="stats-plot")
                yield PlotextPlot(id="plot-tokens-day", classes="stats-plot")
            with Horizontal(id="stats-plots-model", classes="stats-plots"):
                yield PlotextPlot(id="plot-cost-model", classes="stats-plot")
                yield PlotextPlot(id="plot-tokens-model", classes="stats-plot")
        yield Footer()

    def on_mount(self) -> None:
        self.compute()

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_cycle_grouping(self) -> None:
        self.by = GROUPINGS[(GROUPINGS.index(self.by) + 1) % len(GROUPINGS)]
        self.compute()

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False, description="usage")
    def compute(self) -> None:
        usage = load_usage(self.paths, folder=self.cache_folder, no_cache=self.cache_folder is None)
        infos, rows, lineage = usage.infos, usage.rows, usage.lineage
        ready = StatsReady(
            summarize(infos, rows, self.by, lineage=lineage),
            summarize(infos, rows, "day", lineage=lineage),
            summarize(infos, rows, "model", lineage=lineage),
            usage.notice,
        )
        if not get_current_worker().is_cancelled:
            self.post_message(ready)

    def on_stats_ready(self, message: StatsReady) -> None:
        if message.table.by != self.by:
            return  # an answer for a grouping no longer shown
        self.stats = message.table
        if message.notice:
            self.notify(one_line(message.notice), severity="warning", markup=False)
        self.query_one("#stats-table", Static).update(stats_table(message.table))
        days = message.by_day.groups[-MAX_BARS:]
        models = message.by_model.groups[:MAX_BARS]
        self._bars(
            "#plot-cost-day", "Cost per day ($)", [g.key[5:] for g in days], [g.cost for g in days]
        )
        self._bars(
            "#plot-tokens-day",
            "Tokens per day (k)",
            [g.key[5:] for g in days],
            [g.tokens / 1000 for g in days],
        )
        self._bars(
            "#plot-cost-model",
            "Cost per model ($)",
            [_short(g.key) for g in models],
            [g.cost for g in models],
        )
        self._bars(
            "#plot-tokens-model",
            "Tokens per model (k)",
            [_short(g.key) for g in models],
            [g.tokens / 1000 for g in models],
        )

    def _bars(self, selector: str, title: str, labels: list[str], values: list[float]) -> None:
        widget = self.query_one(selector, PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(title)
        if values:
            plt.bar([one_line(label) for label in labels], values)
        widget.refresh()


def _short(model: str) -> str:
    """A model's name without its provider, at most 14 characters (plot labels are narrow)."""
    name = model.rsplit("/", 1)[-1]
    return name if len(name) <= 14 else name[:13] + "…"


def stats_table(stats: Stats) -> Table:
    """The same table as `pitui stats`, totals last."""
    table = Table(expand=False, box=None, padding=(0, 1), header_style="bold")
    table.add_column(stats.by.upper(), no_wrap=True, overflow="ellipsis", max_width=40)
    for name in ("Sessions", "Msgs", "Input", "Output", "Cache read", "Cache write", "Cost"):
        table.add_column(name, justify="right", no_wrap=True)
    for group in [*stats.groups, stats.total]:
        style = "bold" if group is stats.total else ""
        table.add_row(*_cells(group, group is stats.total), style=style)
    if not stats.groups:
        table.add_row(Text("(no usage)", style="dim"))
    return table


def _cells(group: Any, total: bool) -> list[Text | str]:
    key = "TOTAL" if total else group.key
    numbers = (group.input, group.output, group.cache_read, group.cache_write)
    return [
        Text(one_line(key)),
        str(len(group.sessions)),
        str(group.messages),
        *(f"{int(n):,}" for n in numbers),
        f"${group.cost:,.2f}",
    ]
