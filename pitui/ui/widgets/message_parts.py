"""An entry as a list of display parts, for `MessagePane`.

Every string from a session passes through `visible()` and is put into `rich.text.Text(...)`,
rich `Markdown` or `Syntax`: never parsed as Rich or Textual markup. A `Part` keeps its text
apart from the widget that shows it, so the pane can cut very large bodies and show the rest
later as plain text. Rich renderables are drawn as the lines they render to
(`SelectableStatic`), so the mouse selects them and Ctrl+C copies them as shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markdown_it import MarkdownIt
from rich.cells import cell_len
from rich.console import RenderableType
from rich.markdown import Markdown
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.syntax import Syntax
from rich.text import Text
from textual.css.styles import RulesMap
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import Collapsible, Static

from pitui.core.export.fence import language_for
from pitui.core.file_history.edit_diff import EditDiff, edit_diff
from pitui.core.format.jsonline import JsonObject, JsonValue, shown_json
from pitui.core.format.tool_arguments import call_path, write_content
from pitui.core.rows.render_text import entry_text
from pitui.core.rows.safe_text import escape_json_c1, one_line, visible
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.display_text import human_size
from pitui.ui.watches import forget_watches

CODE_THEME = "monokai"  # code and JSON on a dark theme
LIGHT_CODE_THEME = "default"  # on a light one (monokai's own background is dark)


@dataclass(frozen=True, slots=True)
class Part:
    """Text to show and how: `make(text)` builds the widget; a cut part's rest is shown
    as plain text in `style`."""

    text: str
    make: Callable[[str], Widget]
    style: str = ""


class LiteralHtmlMarkdown(Markdown):
    """Rich's Markdown with HTML read as text: Rich drops HTML blocks and inline tags, so
    `<osc52>` or `<details>` typed in a session would silently vanish from the pane."""

    def __init__(self, markup: str, *, code_theme: str, hyperlinks: bool) -> None:
        # inline code in the code theme's colours too: Rich's own "bold cyan on black" read
        # 2.9:1 in the light theme (its black is black, its cyan dark)
        super().__init__(
            "",
            code_theme=code_theme,
            hyperlinks=hyperlinks,
            inline_code_lexer="text",
            inline_code_theme=code_theme,
        )
        parser = MarkdownIt("commonmark", {"html": False}).enable("strikethrough")
        self.markup = markup
        self.parsed = parser.enable("table").parse(markup)


Lines = list[list[Segment]]


class ShownText(Visual):
    """Lines of Rich segments, `lines_at(width)`, drawn as Textual draws its own text: each
    character marked with its place, the selection highlighted, so a drag selects them
    (Textual selects no Rich renderable). Each width is rendered once."""

    WIDTHS = 4  # widths kept: a resize asks for the height at a few widths in turn

    def __init__(self, lines_at: Callable[[int], Lines]) -> None:
        self._lines_at = lines_at
        self._lines: dict[int, Lines] = {}
        self._strips: dict[tuple[int, RichStyle], dict[int, Strip]] = {}

    def lines(self, width: int) -> Lines:
        """The lines shown at `width`."""
        lines = self._lines.get(width)
        if lines is None:
            if len(self._lines) >= self.WIDTHS:
                self._lines.pop(next(iter(self._lines)))
            lines = self._lines[width] = self._lines_at(width)
        return lines

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return max(
            (Segment.get_line_length(line) for line in self.lines(container_width)), default=0
        )

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        count = len(self.lines(width))
        count = count if height is None else min(count, height)
        selection, picked = options.selection, options.selection_style
        return [self.strip(y, width, style, selection, picked) for y in range(count)]

    def strip(
        self, y: int, width: int, style: Style, selection: Selection | None, picked: Style | None
    ) -> Strip:
        """Line `y` at `width` on `style`, its selected part (if any) drawn in `picked`."""
        base = style.rich_style
        lines = self.lines(width)
        if y >= len(lines):
            return Strip.blank(width, base)
        strips = self._strips.get((width, base))
        if strips is None:
            if len(self._strips) >= self.WIDTHS:
                self._strips.pop(next(iter(self._strips)))
            strips = self._strips[(width, base)] = {}
        strip = strips.get(y)
        if strip is None:
            strip = strips[y] = Strip(Segment.apply_style(lines[y], base))
        span = selection.get_span(y) if selection is not None else None
        if span is not None and picked is not None:
            strip = _picked(strip, span, (style + picked).rich_style)
        return strip.apply_offsets(0, y)

    def selected(self, selection: Selection, width: int) -> str:
        """The text `selection` covers at `width`, as shown (lines without their padding)."""
        lines = ["".join(text for text, _, _ in line).rstrip() for line in self.lines(width)]
        return selection.extract("\n".join(lines))


def _picked(strip: Strip, span: tuple[int, int], style: RichStyle) -> Strip:
    """`strip` with the characters `span` covers (end -1: to the end) drawn in `style`."""
    text = strip.text
    start, end = span
    cuts = [cell_len(text[:start]), cell_len(text if end == -1 else text[:end]), strip.cell_length]
    before, middle, after = strip.divide(cuts)
    middle = Strip(Segment.apply_style(middle, post_style=style), middle.cell_length)
    return Strip.join([before, middle, after])


class SelectableStatic(Static):
    """A Static whose content, any Rich renderable, is drawn as the lines it renders to at
    the widget's width, so a drag selects them and Ctrl+C copies what they show."""

    def __init__(self, content: RenderableType = "", *, classes: str | None = None) -> None:
        super().__init__(content, markup=False, classes=classes)
        self._shown: tuple[object, ShownText] | None = None

    def shown_at(self, width: int) -> RenderableType:
        """What the widget shows `width` cells wide (its content)."""
        return self.content  # type: ignore[return-value]

    def _lines_at(self, width: int) -> Lines:
        options = self.app.console_options.update(highlight=False, width=max(width, 1))
        return self.app.console.render_lines(self.shown_at(width), options, pad=False)

    def render(self) -> Visual:
        content = self.content
        if self._shown is None or self._shown[0] is not content:
            self._shown = (content, ShownText(self._lines_at))
        return self._shown[1]

    def render_line(self, y: int) -> Strip:
        """Only the lines on screen are drawn (a long message has thousands)."""
        visual = self.render()
        assert isinstance(visual, ShownText)
        selection, picked = self.text_selection, None
        if selection is not None:
            picked = Style.from_styles(self.screen.get_component_styles("screen--selection"))
        return visual.strip(y, self.size.width, self.visual_style, selection, picked)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        visual = self.render()
        assert isinstance(visual, ShownText)
        return visual.selected(selection, self.content_size.width), "\n"


class ThemedCode(SelectableStatic):
    """A part whose code colours follow the app's theme, also when it changes (F2): Rich's
    Syntax and Markdown code blocks draw their own theme's background."""

    def __init__(self, build: Callable[[str], RenderableType], *, classes: str) -> None:
        super().__init__(classes=classes)
        self._build = build

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._restyle, init=True)

    def on_unmount(self) -> None:
        forget_watches(self, self.app)  # else the app's `theme` keeps this part alive

    def _restyle(self, _theme: str | None = None) -> None:
        dark = self.app.current_theme.dark
        self.update(self._build(CODE_THEME if dark else LIGHT_CODE_THEME))


# -- widget makers ------------------------------------------------------------------------
def _markdown_widget(text: str) -> Widget:
    shown = visible(text)

    def build(theme: str) -> RenderableType:
        return LiteralHtmlMarkdown(shown, code_theme=theme, hyperlinks=False)

    return ThemedCode(build, classes="part markdown")


def plain_widget(text: str, style: str = "") -> Widget:
    return Static(Text(visible(text), style=style), classes="part plain")


def _json_widget(text: str) -> Widget:
    shown = visible(text)
    return ThemedCode(
        lambda theme: Syntax(shown, "json", theme=theme, word_wrap=True), classes="part json"
    )


def _code_widget(text: str, language: str) -> Widget:
    shown = visible(text)
    return ThemedCode(
        lambda theme: Syntax(shown, language or "text", theme=theme, word_wrap=True),
        classes="part code",
    )


DIFF_STYLES = {"-": "red", "+": "green"}  # ANSI colours, readable in both themes (themes.py)


def diff_text(text: str) -> Text:
    """Diff lines coloured by their sign (which stays: the diff reads without colour)."""
    out = Text()
    for number, line in enumerate(visible(text).split("\n")):
        if number:
            out.append("\n")
        out.append(line, DIFF_STYLES.get(line[:1], ""))
    return out


def _diff_widget(text: str) -> Widget:
    return Static(diff_text(text), classes="part diff")


def _thinking_widget(text: str) -> Widget:
    body = Static(Text(visible(text), style="dim italic"), classes="part thinking")
    return Collapsible(body, title=f"thinking ({len(text):,} chars)", collapsed=True)


def markdown(text: str) -> Part:
    return Part(text, _markdown_widget)


def plain(text: str, style: str = "") -> Part:
    return Part(text, lambda t: plain_widget(t, style), style)


def json_part(value: JsonValue) -> Part:
    return Part(to_json(value), _json_widget)


def code(text: str, language: str) -> Part:
    return Part(text, lambda t: _code_widget(t, language))


def diff(text: str) -> Part:
    return Part(text, _diff_widget)


def thinking(text: str) -> Part:
    return Part(text, _thinking_widget, "dim italic")


def field(name: str, value: JsonValue, style: str = "") -> Part:
    """One `name: value` line (a small part)."""
    line = Text.assemble((f"{name}: ", "bold"), (visible(as_text(value)), style))
    return Part("", lambda _t: Static(line, classes="part field"))


def note(text: str, style: str = "bold") -> Part:
    return Part("", lambda _t: Static(Text(visible(text), style=style), classes="part note"))


# -- value helpers -------------------------------------------------------------------------
def to_json(value: JsonValue) -> str:
    dumped = shown_json(value, indent=2, ensure_ascii=False, default=str)
    return escape_json_c1(dumped)


def as_text(value: JsonValue) -> str:
    """A display string for any JSON value (strings as they are)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "—"
    return shown_json(value, ensure_ascii=False, default=str)


def base64_size(data: object) -> int | None:
    """Decoded size of base64 text, computed without decoding."""
    if not isinstance(data, str):
        return None
    length = len(data) - sum(data.count(c) for c in " \r\n\t")
    padding = len(data.rstrip()) - len(data.rstrip().rstrip("="))
    return max(0, length * 3 // 4 - min(padding, 2))


# -- content blocks ------------------------------------------------------------------------
Results = dict[str, JsonObject]  # the tool results of a message's calls, by call id


def content_parts(
    content: JsonValue, *, rich: bool = True, style: str = "", results: Results | None = None
) -> list[Part]:
    """Parts of a message's content: a string or a list of blocks (tool calls shown with
    what `results` says of them)."""
    if isinstance(content, str):
        return [markdown(content) if rich else plain(content, style)]
    if content is None:
        return [note("(no content)", "dim")]
    if not isinstance(content, list):
        return [note("content (not a list):", "yellow"), json_part(content)]
    parts: list[Part] = []
    for block in content:
        parts.extend(block_parts(block, rich=rich, style=style, results=results))
    return parts or [note("(empty content)", "dim")]


def block_parts(
    block: JsonValue, *, rich: bool = True, style: str = "", results: Results | None = None
) -> list[Part]:
    kind = block.get("type") if isinstance(block, dict) else None
    if kind == "text":
        text = as_text(block.get("text", ""))
        return [markdown(text) if rich else plain(text, style)]
    if kind == "thinking":
        if block.get("redacted"):
            return [note("(redacted thinking)", "dim italic")]
        return [thinking(as_text(block.get("thinking", "")))]
    if kind == "toolCall":
        call_id = block.get("id")
        found = (results or {}).get(call_id) if isinstance(call_id, str) else None
        return tool_call_parts(block, found)
    if kind == "image":
        return [note(image_label(block), "magenta")]
    return [note(f"unknown block {as_text(kind)}:", "yellow"), json_part(block)]


def tool_call_parts(block: JsonObject, result: JsonObject | None = None) -> list[Part]:
    """A call's title and arguments: a write's content in its file's syntax, an edit as a
    diff (with Pi's line numbers when `result`, its tool result, holds Pi's diff), any
    other call (or one Pi's tool would refuse) as JSON."""
    name, arguments = block.get("name"), block.get("arguments")
    title = note(f"tool call {as_text(name)} ({as_text(block.get('id'))})", "bold cyan")
    path = call_path(arguments)
    if name == "write" and path is not None:
        content = write_content(arguments)
        if content is not None:
            return [title, field("path", path), code(content, language_for(path))]
    if name == "edit":
        details = (
            result.get("details") if result is not None and not result.get("isError") else None
        )
        found = edit_diff(arguments, details)
        if found is not None:
            return [title, *edit_parts(found)]
    return [title, json_part(arguments)]


def edit_parts(found: EditDiff) -> list[Part]:
    parts = [] if found.path is None else [field("path", found.path)]
    if found.first_changed_line is not None:
        parts.append(field("first changed line", found.first_changed_line))
    return [*parts, diff(found.text)]


def image_label(block: JsonObject) -> str:
    size = base64_size(block.get("data"))
    shown = "no data" if size is None else human_size(size)
    return f"[image {as_text(block.get('mimeType'))}, {shown}]"


def target_preview(tree: SessionTree | None, target: JsonValue) -> str:
    """One line describing the entry `target` names, if the tree has it."""
    entry = tree.get(target) if tree is not None and isinstance(target, str) else None
    if entry is None:
        return "(not in this session)" if tree is not None else ""
    kind = entry.role or entry.type
    return f"{kind}: {one_line(entry_text(entry))[:120]}"


def fallback_parts(entry: Entry, error: BaseException | None = None) -> list[Part]:
    """The raw JSON of an entry, when nothing better is known (or rendering failed)."""
    title = f"could not render ({type(error).__name__})" if error else f"entry type {entry.type}"
    return [note(title, "yellow"), json_part(entry.raw)]
