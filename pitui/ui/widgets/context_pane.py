"""What the LLM would receive from the highlighted entry: `ContextPane`.

`prepare_context(context)` turns a `Context` into plain rows and touches no widget, so a
screen can run it (and `build_context`) in a thread worker and hand the result to
`ContextPane.show_context`. The list draws only its visible rows (line API), so contexts of
many thousands of messages stay responsive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Static

from pitui.core.format.jsonline import JsonObject
from pitui.core.format.tokens import estimate_tokens
from pitui.core.rows.render_text import entry_text, message_text
from pitui.core.rows.safe_text import one_line
from pitui.core.session.context import Context, ProjectedEntry, entry_messages
from pitui.ui.display_text import in_text_colour
from pitui.ui.widgets.cursor_list import CursorList
from pitui.ui.widgets.widget_message import WidgetMessage

PREVIEW_CHARS = 300
ROLE_STYLES = {
    "user": "bold green",
    "assistant": "bold blue",
    "toolResult": "bold cyan",
    "bashExecution": "bold yellow",
    "compactionSummary": "bold magenta",
    "branchSummary": "bold magenta",
    "system": "bold red",
    "custom": "bold",
}


@dataclass(frozen=True, slots=True)
class ContextRow:
    """One row: a message (`role` set) or a marker line (`role` None)."""

    entry_id: str | None
    text: str
    role: str | None = None
    tokens: int = 0
    omitted: bool = False
    replaced: bool = False


@dataclass(slots=True)
class ContextView:
    """Rows and header facts of one context, ready to show."""

    rows: list[ContextRow] = field(default_factory=list)
    model: str = "—"
    thinking_level: str = "off"
    tokens: int = 0
    message_count: int = 0
    edits: int = 0  # entries a context edit omits or replaces
    tokens_unedited: int = 0  # the estimate as if no edit applied
    tokens_cut: int = 0  # chars/4 of what the edits take out, less what they put in
    note: str = ""  # e.g. which leaf is shown after an edit


def _short(text: str) -> str:
    return one_line(text[:PREVIEW_CHARS])


def _model(settings: JsonObject) -> str:
    model = settings.get("model")
    if not isinstance(model, dict):
        return "—"
    return one_line("/".join(str(v) for v in (model.get("provider"), model.get("modelId")) if v))


def _compaction_marker(context: Context) -> ContextRow:
    compaction = context.compaction
    assert compaction is not None
    in_context = {id(item.entry) for item in context.items}
    before = next((i for i, e in enumerate(context.path) if e is compaction), 0)
    summarised = sum(1 for e in context.path[:before] if id(e) not in in_context)
    text = f"── compaction {compaction.id}: {summarised:,} entries summarised ──"
    return ContextRow(compaction.id, one_line(text))


def _item_rows(item: ProjectedEntry) -> list[ContextRow]:
    entry = item.entry
    if item.omitted:
        edit = item.edit.id if item.edit else "?"
        text = f"omitted by {edit}: {_short(entry_text(entry))}"
        return [ContextRow(entry.id, text, entry.role or entry.type, omitted=True)]
    rows = []
    for message in item.messages:
        role = message.get("role") if isinstance(message, dict) else None
        text = _short(message_text(message))
        if item.replaced and item.edit is not None:
            text = f"replaced by {item.edit.id}: {text}"
        role_text = one_line(role) if isinstance(role, str) else "?"
        rows.append(
            ContextRow(entry.id, text, role_text, estimate_tokens(message), False, item.replaced)
        )
    return rows


def prepare_context(context: Context) -> ContextView:
    """Rows for `context` (thread-safe: no widget is touched)."""
    view = ContextView(model=_model(context.settings), tokens=context.tokens)
    view.thinking_level = one_line(str(context.settings.get("thinkingLevel", "off")))
    for index, item in enumerate(context.items):
        if index == 0 and item.entry is context.compaction:
            view.rows.append(_compaction_marker(context))
        view.rows.extend(_item_rows(item))
    view.message_count = sum(1 for row in view.rows if row.role and not row.omitted)
    _edit_figures(view, context)
    return view


def _edit_figures(view: ContextView, context: Context) -> None:
    """What the context edits that apply here cut, in the header estimate's own measure (an
    earlier reply's usage, 2,948, beside an edited ~64 and a cut of ~12 read as three
    unrelated figures)."""
    edited = [item for item in context.items if item.edit is not None]
    view.edits = len(edited)
    before = sum(estimate_tokens(m) for item in edited for m in entry_messages(item.entry))
    after = sum(estimate_tokens(m) for item in edited for m in item.messages)
    view.tokens_cut = before - after
    view.tokens_unedited = view.tokens + view.tokens_cut


# a pane narrower than this names roles short: at 80 columns the full names (14 columns)
# and the token counts left ~5 characters of each message
FULL_ROLES_FROM = 60
SHORT_ROLES = {
    "assistant": "asst",
    "toolResult": "tool",
    "bashExecution": "bash",
    "compactionSummary": "summary",
    "branchSummary": "branch",
}


@dataclass(frozen=True, slots=True)
class RowLayout:
    """The widths of a row's token and role columns, and whether roles are named short."""

    tokens: int = 7
    role: int = 14
    short: bool = False


def row_layout(rows: Sequence[ContextRow], width: int) -> RowLayout:
    """Columns as wide as what they hold: the largest count, the longest role shown."""
    short = width < FULL_ROLES_FROM
    roles = {row.role for row in rows if row.role is not None}
    names = [_role_name(role, short) for role in roles] or [""]
    tokens = max((row.tokens for row in rows if row.role is not None), default=0)
    return RowLayout(len(f"{tokens:,}"), min(max(map(len, names)), 17), short)


def _role_name(role: str, short: bool) -> str:
    return SHORT_ROLES.get(role, role) if short else role


def row_text(row: ContextRow, muted: Style, layout: RowLayout | None = None) -> Text:
    """A row as styled text (session text is never parsed as markup); the token count, and
    the whole of an omitted row (struck through), in the `muted` colour."""
    if row.role is None:
        return Text(row.text, style="bold magenta")
    layout = layout or RowLayout()
    omitted = muted + Style(strike=True) if row.omitted else Style()
    text = Text()  # the count alone is muted (a Text's own style would mute the whole row)
    text.append(f" {row.tokens:>{layout.tokens},} ", muted)
    role = Style.parse(ROLE_STYLES.get(row.role, "bold"))
    name = _role_name(row.role, layout.short)
    text.append(f"{name:<{layout.role}.{layout.role}} ", role + omitted)
    if row.replaced:
        text.append("✎ ", "bold yellow")
    text.append(row.text, omitted)
    return text


class ContextList(CursorList[ContextRow], can_focus=True):
    """A cursor over `ContextRow`s, drawing only the visible lines; a click shows its entry."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Show entry", id="context_pane.select"),
    ]
    PAGE_OVERLAP = 1
    CLICK_SELECTS = "always"
    DEFAULT_CSS = """
    ContextList { height: 1fr; overflow-x: hidden; }
    ContextList > .context-list--cursor { background: $accent 20%; text-style: bold; }
    ContextList:focus > .context-list--cursor { background: $accent 35%; }
    ContextList > .context-list--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"context-list--cursor", "context-list--muted"}

    class Selected(Message):
        def __init__(self, row: ContextRow) -> None:
            self.row = row
            super().__init__()

    _layout: tuple[int, RowLayout] | None = None  # the columns, for the width they are for

    def set_rows(self, rows: list[ContextRow]) -> None:
        self._rows = rows
        self._layout = None
        self.virtual_size = Size(0, len(rows))
        self.set_reactive(ContextList.cursor_line, 0)
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def action_select(self) -> None:
        if (row := self.highlighted_row) is not None:
            self.post_message(self.Selected(row))

    def _layout_for(self, width: int) -> RowLayout:
        if self._layout is None or self._layout[0] != width:
            self._layout = (width, row_layout(self.rows, width))
        return self._layout[1]

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, self.rich_style)
        muted = self.get_component_rich_style("context-list--muted").color  # blends $text-muted
        text = row_text(self.rows[index], Style(color=muted), self._layout_for(width))
        if index == self.cursor_line:
            in_text_colour(text)
        text.truncate(width, overflow="ellipsis")
        segments = list(text.render(self.app.console))
        strip = Strip(segments).extend_cell_length(width).crop(0, width)
        if index == self.cursor_line:
            cursor = self.get_component_rich_style("context-list--cursor")
            strip = strip.apply_style(cursor)
        return strip.apply_style(self.rich_style)


class ContextPane(Vertical):
    """The context the LLM would receive with the highlighted entry as leaf."""

    DEFAULT_CSS = """
    ContextPane { height: 1fr; }
    ContextPane > .context-header { background: $boost; padding: 0 1; height: auto; }
    """

    class EntrySelected(WidgetMessage):
        """A row was chosen (Enter or click): show its entry."""

        def __init__(self, pane: ContextPane, entry_id: str) -> None:
            super().__init__(pane)
            self.entry_id = entry_id

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.view = ContextView()

    def compose(self) -> ComposeResult:
        yield Static(self._header_text(), classes="context-header")
        yield ContextList()

    @property
    def rows(self) -> list[ContextRow]:
        return self.view.rows

    def show_context(self, context: Context | ContextView | None) -> None:
        """Show a built `Context` (or rows from `prepare_context`); None clears the pane."""
        if context is None:
            view = ContextView()
        elif isinstance(context, Context):
            view = prepare_context(context)
        else:
            view = context
        self.view = view
        if self.is_mounted:
            self._apply()

    def on_mount(self) -> None:
        self._apply()

    def _apply(self) -> None:
        try:
            header, rows = self.query_one(".context-header", Static), self.query_one(ContextList)
        except NoMatches:  # the app quit while the pane was being put on screen
            return
        header.update(self._header_text())
        rows.set_rows(self.view.rows)

    def _header_text(self) -> Text:
        view = self.view
        text = Text("context  ", style="bold")
        text.append(f"model {view.model}  ", "yellow")
        text.append(f"thinking {view.thinking_level}  ")
        text.append(f"~{_counted(view.tokens, 'token')}  ", "bold")
        text.append(_counted(view.message_count, "message"), "dim")
        if view.edits:
            edits = _counted(view.edits, "edit")
            text.append(
                f"\n{edits} cut ~{view.tokens_cut:,} of ~{view.tokens_unedited:,}", "yellow"
            )
        if view.note:
            text.append(f"\n{view.note}", "italic")
        return text

    def on_context_list_selected(self, event: ContextList.Selected) -> None:
        event.stop()
        if event.row.entry_id is not None:
            self.post_message(self.EntrySelected(self, event.row.entry_id))


def _counted(number: int, noun: str) -> str:
    """ "1 message", "2 messages", "1,024 tokens"."""
    return f"{number:,} {noun}" + ("" if number == 1 else "s")
