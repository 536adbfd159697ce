"""The stats screen's table, fitted to its width when drawn: whole numbers where they fit,
else tokens in k/M with short headers; sessions named by their title over their path, a
path (session or project) cut in the middle. Totals last."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from pitui.core.rows.safe_text import one_line
from pitui.core.usage.groups import BY_TIME, Group, Stats
from pitui.ui.display_text import middle_ellipsis, tilde

KEY_MIN = 24  # below this the numbers go compact, to leave the group's name room
KEY_FLOOR = 12  # below this, columns give way (a day, YYYY-MM-DD, whole)
KEY_MAX = 72
GAP = 2
NO_TITLE = "(no title)"
COMPACT_UNITS = ((1e9, "G"), (1e6, "M"), (1e3, "k"))  # the stats plots' axes use them too
# rows drawn at most: the costliest groups, or the latest days; a table of 10,000 sessions
# took 22 s to lay out on the app's thread, the app frozen (`pitui stats` prints them all)
SHOWN_AT_MOST = 500


@dataclass(frozen=True)
class Numbers:
    header: str
    short: str  # the header when compact
    value: Callable[[Group], float]
    tokens: bool = True


NUMBERS = (
    Numbers("Sessions", "Sess", lambda g: len(g.sessions), tokens=False),
    Numbers("Replies", "Replies", lambda g: g.messages, tokens=False),  # assistant messages
    Numbers("Input", "Input", lambda g: g.input),
    Numbers("Output", "Output", lambda g: g.output),
    Numbers("Cache read", "Cache R", lambda g: g.cache_read),
    Numbers("Cache write", "Cache W", lambda g: g.cache_write),
)


DROPPED_FIRST = ("Cache W", "Cache R", "Replies")  # compact headers, in the order they go


class UsageTable(Vertical):
    """The table of `stats` (None: still working it out), drawn for the width it has. Its
    heading stays on top while its rows scroll below it, in a box at most half the screen
    tall (the stats screen's plots take the rest)."""

    DEFAULT_CSS = """
    UsageTable { height: auto; }
    UsageTable > .usage-heading { height: auto; padding-right: 1; }
    UsageTable > .usage-rows {
        height: auto; max-height: 50vh; scrollbar-gutter: stable; scrollbar-size-vertical: 1;
    }
    UsageTable > .usage-rows > Static { height: auto; }
    """

    def __init__(self, home: str | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.stats: Stats | None = None
        self.titles: Mapping[str, str] = {}
        self.home = home
        self.read: tuple[int, int] | None = None  # sessions read of all, while working

    def compose(self) -> ComposeResult:
        yield Static(Text("Working out usage…", style="dim"), classes="usage-heading")
        with VerticalScroll(classes="usage-rows", can_focus=False):
            yield Static()

    def show(self, stats: Stats, titles: Mapping[str, str]) -> None:
        self.stats, self.titles = stats, titles
        self._draw()

    def working(self, done: int, total: int) -> None:
        """How far the sessions' usage has been read (before there is a table)."""
        self.read = (done, total)
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        heading = self.query_one(".usage-heading", Static)
        rows = self.query_one(".usage-rows > Static", Static)
        if self.stats is None:
            said = "Working out usage…"
            if self.read is not None:
                said += f" read {self.read[0]:,} of {self.read[1]:,} sessions"
            heading.update(Text(said, style="dim"))
            return
        width = max(1, self.content_size.width - 1)  # the rows' scrollbar gutter
        heading.update(usage_table(self.stats, width, self.titles, self.home, rows=False))
        rows.update(usage_table(self.stats, width, self.titles, self.home, heading=False))


def usage_table(
    stats: Stats,
    width: int,
    titles: Mapping[str, str] | None = None,
    home: str | None = None,
    *,
    heading: bool = True,
    rows: bool = True,
) -> Table:
    """The table for `width` columns (the same numbers as `pitui stats`); its `heading` and
    its `rows` can be drawn apart, their columns as wide."""
    titles = titles or {}
    shown, left_out = _shown(stats)
    groups = [*shown, stats.total]
    note = _left_out_note(stats.by, left_out) if left_out else ""
    keys = (_key_length(stats.by, g.key, titles, home) for g in groups)
    wanted = max(len(stats.by), 5, len(note), *keys)
    need = min(KEY_MIN, wanted)  # the names' room before numbers go compact or columns go
    headers = [*(n.header for n in NUMBERS), "Cost"]
    cells = [_numbers(g, compact=False) for g in groups]
    widths = _widths(headers, cells)
    if width - sum(widths) - GAP * len(widths) < need:
        headers = [*(n.short for n in NUMBERS), "Cost"]
        cells = [_numbers(g, compact=True) for g in groups]
        widths = _widths(headers, cells)
    for dropped in DROPPED_FIRST:  # still no room for the names: the least asked columns go
        if width - sum(widths) - GAP * len(widths) >= min(need, KEY_FLOOR):
            break
        at = headers.index(dropped)
        del headers[at], widths[at]
        cells = [row[:at] + row[at + 1 :] for row in cells]
    room = width - sum(widths) - GAP * len(widths)
    key_width = max(8, min(KEY_MAX, wanted, room))
    table = Table(
        box=None, padding=(0, 0, 0, GAP), pad_edge=False, header_style="bold", show_header=heading
    )
    table.add_column(stats.by.upper(), width=key_width, no_wrap=True, overflow="ellipsis")
    for header, column_width in zip(headers, widths, strict=True):
        table.add_column(header, justify="right", width=column_width)
    for group, numbers in zip(groups, cells, strict=True) if rows else ():
        total = group is stats.total
        if total and note:
            table.add_row(Text(note, style="dim"))
        key = Text("TOTAL") if total else _key(stats.by, group.key, key_width, titles, home)
        table.add_row(key, *numbers, style="bold" if total else "")
    if rows and not stats.groups:
        table.add_row(Text("(no usage)", style="dim"))
    return table


def _shown(stats: Stats) -> tuple[list[Group], int]:
    """The groups drawn, and how many are left out (see `SHOWN_AT_MOST`)."""
    groups = stats.groups
    if len(groups) <= SHOWN_AT_MOST:
        return list(groups), 0
    kept = groups[-SHOWN_AT_MOST:] if stats.by in BY_TIME else groups[:SHOWN_AT_MOST]
    return list(kept), len(groups) - SHOWN_AT_MOST


def _left_out_note(by: str, count: int) -> str:
    """In the name's column (`pitui stats --by BY` lists them all)."""
    return f"+{count:,} {'earlier' if by in BY_TIME else 'more'}"


def _widths(headers: list[str], cells: list[list[str]]) -> list[int]:
    return [max(len(h), *(len(row[i]) for row in cells)) for i, h in enumerate(headers)]


def _numbers(group: Group, compact: bool) -> list[str]:
    shown = [(_compact if compact and n.tokens else _whole)(n.value(group)) for n in NUMBERS]
    return [*shown, f"${group.cost:,.2f}"]


def _whole(value: float) -> str:
    return f"{int(value):,}"


def _compact(value: float) -> str:
    """1,047 as 1.0k, 1,489,455 as 1.5M (three significant figures or so)."""
    for limit, unit in COMPACT_UNITS:
        if value >= limit:
            return f"{value / limit:.1f}{unit}"
    return str(int(value))


def _key_length(by: str, key: str, titles: Mapping[str, str], home: str | None) -> int:
    if by == "session":
        return max(len(one_line(titles.get(key) or NO_TITLE)), len(one_line(tilde(key, home))))
    return len(one_line(tilde(key, home) if by == "project" else key))


def _key(by: str, key: str, width: int, titles: Mapping[str, str], home: str | None) -> Text:
    """A group's name: a session's title over its path; paths cut in the middle."""
    if by == "session":
        title = one_line(titles.get(key) or NO_TITLE)
        path = middle_ellipsis(one_line(tilde(key, home)), width)
        return Text.assemble(title, "\n", (path, "dim"), no_wrap=True, overflow="ellipsis")
    if by == "project":
        return Text(middle_ellipsis(one_line(tilde(key, home)), width))
    return Text(one_line(key))
