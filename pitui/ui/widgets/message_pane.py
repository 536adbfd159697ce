"""The highlighted entry, rendered in full: `MessagePane` and its `EntryHeader`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Static

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import JsonValue
from pitui.core.rows.safe_text import one_line
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.failures import ReportsFailures
from pitui.ui.widgets.entry_parts import entry_parts
from pitui.ui.widgets.message_parts import (
    Part,
    SelectableStatic,
    as_text,
    fallback_parts,
    plain_widget,
)

LARGE_BODY = 50_000  # characters of body text above which only the head is rendered at once
HEAD_CHARS = 20_000  # characters rendered at once for a large body
CHUNK_CHARS = 16_000  # the rest is mounted in plain-text chunks of this size, one per frame

TYPE_STYLES: dict[str, str] = {
    EntryType.MESSAGE: "bold green",
    EntryType.COMPACTION: "bold magenta",
    EntryType.BRANCH_SUMMARY: "bold magenta",
    EntryType.CONTEXT_EDIT: "bold yellow",
    EntryType.LABEL: "bold cyan",
}


def _number(value: JsonValue) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.4g}"
    return one_line(as_text(value))


_APART = " · "


def usage_parts(usage: JsonValue) -> list[str]:
    """`in 1,200`, `out 80`, ... `$0.0123` from a usage object."""
    if not isinstance(usage, dict):
        return []
    names = {"input": "in", "output": "out", "cacheRead": "cache r", "cacheWrite": "cache w"}
    names["totalTokens"] = "total"
    parts = [f"{short} {_number(usage[key])}" for key, short in names.items() if key in usage]
    cost = usage.get("cost")
    total = cost.get("total") if isinstance(cost, dict) else None
    if isinstance(total, int | float) and not isinstance(total, bool):
        parts.append(f"${total:.4f}")
    return parts


def _model_of(entry: Entry) -> str:
    raw, message = entry.raw, entry.message or {}
    if entry.role == "assistant":
        provider, model = message.get("provider"), message.get("model")
    elif entry.type == EntryType.MODEL_CHANGE:
        provider, model = raw.get("provider"), raw.get("modelId")
    elif entry.type == EntryType.USAGE:
        provider, model = raw.get("provider"), raw.get("model")
    else:
        return ""
    return one_line("/".join(as_text(v) for v in (provider, model) if v is not None))


@dataclass(frozen=True)
class HeaderPieces:
    """An entry's header: pieces a line breaks between, never inside (each with what joins it
    to the one before on a line), and a warning below."""

    pieces: list[tuple[str, Text]]
    warning: str = ""

    def flowed(self, width: int | None = None) -> Text:
        """The pieces on lines of at most `width` cells, broken before a piece that would
        pass it (a wrap inside a piece split "line" from its number at 80 columns)."""
        text = Text()
        line_width = 0
        for joiner, piece in self.pieces:
            joined = line_width + len(joiner) + piece.cell_len
            if line_width and width is not None and joined > width:
                text.append("\n")
                line_width = 0
            elif line_width:
                text.append(joiner)
                line_width += len(joiner)
            text.append_text(piece)
            line_width += piece.cell_len
        if self.warning:
            text.append(f"\n⚠ not in Pi's format: {self.warning}", "yellow")
        return text


def header_pieces(entry: Entry, tree: SessionTree | None = None) -> HeaderPieces:
    """Type/role, id, timestamp, model, usage and cost, label, line of one entry."""
    kind = entry.type + (f" · {entry.role}" if entry.role else "")
    pieces = [Text(one_line(kind), TYPE_STYLES.get(entry.type, "bold"))]
    pieces.append(Text(one_line(entry.id), "cyan"))
    if entry.timestamp is not None:
        pieces.append(Text(one_line(as_text(entry.timestamp)), "dim"))
    pieces.append(Text(_model_of(entry), "yellow"))
    usage = (entry.message or {}).get("usage") or entry.raw.get("usage")
    amounts = [Text(part) for part in usage_parts(usage)]
    label = tree.label_of(entry.id) if tree is not None else None
    after = [Text(f"[{one_line(label)}]", "bold cyan")] if label else []
    after.append(Text(f"line {entry.line}", "dim"))
    # deferred: pydantic's models, ~0.1 s until a message is checked
    from pitui.core.format.models import check_entry

    problems = check_entry(entry.raw)
    joined = [("  ", p) for p in pieces if p]
    joined += [(_APART if i else "  ", amount) for i, amount in enumerate(amounts)]
    joined += [("  ", p) for p in after]
    return HeaderPieces(joined, one_line("; ".join(problems[:4])))


def header_text(entry: Entry, tree: SessionTree | None = None) -> Text:
    """The header on one line (and its warning below)."""
    return header_pieces(entry, tree).flowed()


class EntryHeader(SelectableStatic):
    """The lines describing an entry, broken between its pieces to fit the width Textual
    lays it out at (flowing them again on resize kept the height of the width before: a gap
    under the header after the window grew)."""

    DEFAULT_CSS = """
    EntryHeader { background: $boost; padding: 0 1; margin-bottom: 1; }
    """

    def __init__(self, entry: Entry, tree: SessionTree | None = None) -> None:
        self._pieces = header_pieces(entry, tree)
        super().__init__(self._pieces.flowed())

    def shown_at(self, width: int) -> RenderableType:
        return self._pieces.flowed(width or None)


def split_parts(parts: list[Part], budget: int) -> tuple[list[Part], list[Part]]:
    """The parts that fit in `budget` characters, and the rest (a cut part's rest is plain)."""
    used = 0
    for index, part in enumerate(parts):
        if used + len(part.text) <= budget:
            used += len(part.text)
            continue
        cut = budget - used
        if cut <= 0:
            return parts[:index], parts[index:]
        rest = Part(part.text[cut:], partial(plain_widget, style=part.style), part.style)
        return [*parts[:index], replace(part, text=part.text[:cut])], [rest, *parts[index + 1 :]]
    return parts, []


def rest_widgets(rest: list[Part]) -> Iterator[Widget]:
    """Widgets for deferred parts; large texts as plain chunks."""
    for part in rest:
        if len(part.text) <= CHUNK_CHARS:
            yield part.make(part.text)
            continue
        for start in range(0, len(part.text), CHUNK_CHARS):
            yield plain_widget(part.text[start : start + CHUNK_CHARS], part.style)


SHOW_ALL = Binding(
    "alt+a", "show_all", "Show all", id="message_pane.show_all", tooltip="Render the rest"
)


class MessagePane(ReportsFailures, VerticalScroll, can_focus=True):
    """Shows one entry in full: header, markdown text, thinking, tool calls and results,
    and every other entry type; unknown ones as JSON."""

    DEFAULT_CSS = """
    MessagePane { padding: 0 1; }
    MessagePane .part { height: auto; }
    MessagePane .markdown, MessagePane .json, MessagePane .diff, MessagePane .code {
        margin-bottom: 1;
    }
    MessagePane Collapsible { padding-bottom: 0; }
    MessagePane .show-all { margin: 1 0; }
    MessagePane .empty { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [SHOW_ALL]

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.entry: Entry | None = None
        self._rest: list[Part] = []

    @property
    def has_more(self) -> bool:
        """True while part of a large body is not rendered yet."""
        return bool(self._rest)

    def show_entry(self, entry: Entry | None, session_tree: SessionTree | None = None) -> None:
        """Render `entry` (None: an empty pane); replaces whatever was shown."""
        self.entry = entry
        self._rest = []
        work = partial(self._show, entry, session_tree)
        self._run(work, "rendering the entry")

    def _run(self, work: Callable[[], Awaitable[None]], description: str) -> None:
        """Render in a worker; a failure is reported (ReportsFailures), the pane stays usable."""
        self.run_worker(
            work, group="message-pane", exclusive=True, exit_on_error=False, description=description
        )

    def show_all(self) -> None:
        """Render the rest of a large body, a chunk per frame."""
        self.action_show_all()

    def action_show_all(self) -> None:
        if not self._rest:
            return
        rest, self._rest = self._rest, []
        self.refresh_bindings()
        self._run(partial(self._show_rest, rest), "rendering the rest of the entry")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Alt+A only while part of the entry is not shown (not in the footer after)."""
        return bool(self._rest) if action == "show_all" else True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.has_class("show-all"):
            event.stop()
            self.action_show_all()

    async def _show(self, entry: Entry | None, tree: SessionTree | None) -> None:
        widgets, rest = self._first_widgets(entry, tree)
        with self.app.batch_update():
            self.remove_children()  # see _show_rest
            await self.mount_all(widgets)
        self.scroll_home(animate=False)
        self._rest = rest
        self.refresh_bindings()

    async def _show_rest(self, rest: list[Part]) -> None:
        # A removal is not awaited here: this worker is cancelled when another entry is
        # highlighted, and a cancelled wait for a removal cancelled the removed widgets' own
        # tasks, which the app then awaited: a burst of PgDn ended pitui (exit status 0).
        self.query(".show-all").remove()
        for widget in rest_widgets(rest):
            await self.mount(widget)
            await asyncio.sleep(0)

    def _first_widgets(
        self, entry: Entry | None, tree: SessionTree | None
    ) -> tuple[list[Widget], list[Part]]:
        if entry is None:
            return [Static(Text("No entry selected"), classes="empty")], []
        try:
            return self._entry_widgets(entry, tree, entry_parts(entry, tree))
        except Exception as error:  # a malformed entry must never break the pane
            return self._entry_widgets(entry, tree, fallback_parts(entry, error))

    def _entry_widgets(
        self, entry: Entry, tree: SessionTree | None, parts: list[Part]
    ) -> tuple[list[Widget], list[Part]]:
        total = sum(len(part.text) for part in parts)
        head, rest = split_parts(parts, HEAD_CHARS if total > LARGE_BODY else total)
        widgets: list[Widget] = [EntryHeader(entry, tree)]
        widgets += [part.make(part.text) for part in head]
        if rest:
            size = sum(len(part.text) for part in rest)
            key = self.app.get_key_display(SHOW_ALL)  # no Pi id remaps it
            label = f"Show all ({total // 1024:,} KB, {size // 1024:,} KB more; {key})"
            widgets.append(Button(label, classes="show-all", compact=True))
        return widgets, rest
