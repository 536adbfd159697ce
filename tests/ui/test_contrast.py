"""Every text colour pitui sets has a WCAG contrast ratio of at least 4.5:1 against the
background it is drawn on, in each theme pitui ships (pitui.tcss and the widgets' CSS, as
resolved by Textual for that theme)."""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.style import Style
from textual.color import Color as TextualColor
from ui_helpers import open_from_picker, settle
from waiting import wait_for

from pitui.ui.widgets.context_pane import ContextList
from pitui.ui.widgets.entry_tree import _STYLE_CLASSES, EntryTree
from pitui.ui.widgets.session_table import SessionTable

THEMES = ("pitui-dark", "pitui-light")
MINIMUM = 4.5


def luminance(color: RichColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(fg: RichColor, bg: RichColor) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_ratio_is_wcag() -> None:
    assert ratio(RichColor.parse("#000000"), RichColor.parse("#ffffff")) == pytest.approx(21)
    assert ratio(RichColor.parse("#777777"), RichColor.parse("#ffffff")) == pytest.approx(
        4.48, abs=0.01
    )


def pairs_of(widget: Any, components: list[str], on: Style | None = None) -> list[tuple]:
    """(what, fg, bg, dim) for each component's colour on the widget's (or `on`'s) bg."""
    out = []
    for name in components:
        style = widget.get_component_rich_style(name)
        bg = (on or style).bgcolor or widget.rich_style.bgcolor
        if style.color is not None:
            out.append((name, style.color, bg, bool(style.dim)))
    return out


def static_pair(widget: Any) -> tuple:
    style = widget.rich_style
    return (f"#{widget.id}", style.color, style.bgcolor, bool(style.dim))


async def collect(pilot: Any) -> list[tuple]:
    app = pilot.app
    picker = app.screen
    await wait_for(pilot, lambda: picker.scanned)
    await settle(pilot)
    table = picker.query_one(SessionTable)
    found = pairs_of(table, sorted(table.COMPONENT_CLASSES))
    cursor = table.get_component_rich_style("session-table--cursor")
    found.append(("session-table text on cursor", table.rich_style.color, cursor.bgcolor, False))
    found += [static_pair(picker.query_one(sel)) for sel in ("#picker-status", "#picker-empty")]
    screen = await open_from_picker(pilot, "rounding")  # the whole tree, not a search's rows
    tree = screen.query_one(EntryTree)
    found += pairs_of(tree, sorted(_STYLE_CLASSES.values()))
    cursor = tree.get_component_rich_style("entry-tree--cursor")
    found.append(("entry-tree text on cursor", tree.rich_style.color, cursor.bgcolor, False))
    found += [static_pair(screen.query_one(sel)) for sel in ("#session-title",)]
    return found


@pytest.mark.parametrize("theme", THEMES)
async def test_every_text_colour_is_readable(app_factory: Any, theme: str) -> None:
    app = app_factory()
    async with app.run_test(size=(160, 40)) as pilot:
        app.theme = theme
        await pilot.pause()
        found = await collect(pilot)
    low = []
    for what, fg, bg, dim in found:
        assert not dim, f"{what}: dim text halves its contrast"
        value = ratio(fg, bg)
        if value < MINIMUM:
            low.append(f"{what}: {value:.2f}")
    assert len(found) > 15 and not low, low


@pytest.mark.parametrize("theme", THEMES)
async def test_tool_rows_keep_the_row_background_to_the_edge(app_factory: Any, theme: str) -> None:
    app = app_factory()
    async with app.run_test(size=(160, 40)) as pilot:
        app.theme = theme
        await collect(pilot)
        tree = app.screen.query_one(EntryTree)
        width, top = tree.scrollable_content_region.width, tree.scroll_offset.y
        shown = range(top, min(len(tree.rows), top + tree.scrollable_content_region.height))
        tools = [i for i in shown if tree.rows[i].text.startswith("[") and i != tree.cursor_line]
        assert tools
        for index in tools:
            strip = tree.render_line(index - top)
            assert strip.cell_length == width
            backgrounds = {seg.style.bgcolor for seg in strip if seg.style is not None}
            assert backgrounds == {tree.rich_style.bgcolor}, (index, backgrounds)


@pytest.mark.parametrize("theme", THEMES)
async def test_terminal_colour_names_are_readable(app_factory: Any, theme: str) -> None:
    """Rich text styled "green", "cyan", ... (headers, previews, tables) is drawn through the
    app's ANSI theme: each of the six colours, normal and bright, reads at 4.5:1 on every
    background of the theme."""
    async with app_factory().run_test(size=(80, 24)) as pilot:
        app = pilot.app
        app.theme = theme
        await pilot.pause()
        variables = app.get_css_variables()
        backgrounds = [
            RichColor.parse(variables[name]) for name in ("background", "surface", "panel")
        ]
        palette = app.ansi_theme.ansi_colors
        low = []
        for index in [*range(1, 7), *range(9, 15)]:
            triplet = palette[index]
            colour = RichColor.from_rgb(triplet.red, triplet.green, triplet.blue)
            for background in backgrounds:
                if ratio(colour, background) < MINIMUM:
                    low.append(
                        (index, triplet, background.name, round(ratio(colour, background), 2))
                    )
        assert low == []


def code_background(widget: Any) -> RichColor:
    """The background a JSON block (Rich's Syntax) draws under its code."""
    from rich.syntax import Syntax

    content = widget.content
    assert isinstance(content, Syntax)
    colour = content.get_theme(content._theme).get_background_style().bgcolor  # type: ignore[attr-defined]
    return colour if colour is not None else RichColor.parse("default")


async def test_json_blocks_follow_the_theme(app_factory: Any) -> None:
    """A tool call's JSON arguments are drawn on a light background in the light theme (and
    after F2 switches theme on screen), on a dark one in the dark theme."""
    from ui_helpers import settle as settled

    async with app_factory().run_test(size=(160, 40)) as pilot:
        app = pilot.app
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home")
        for _ in range(len(tree.rows)):
            await settled(pilot)
            if screen.query(".part.json"):
                break
            await pilot.press("down")
        block = screen.query(".part.json").first()
        assert luminance(code_background(block)) < 0.2  # pitui-dark
        await pilot.press("f2")
        await settled(pilot)
        assert app.theme == "pitui-light"
        assert luminance(code_background(block)) > 0.7
        assert luminance(code_background(screen.query(".part.json").first())) > 0.7


def as_shown(colour: RichColor, colours: str) -> RichColor:
    """The colour a terminal shows: itself, or in a 256-colour terminal the palette entry
    Rich (Textual's renderer) downgrades it to."""
    return colour if colours == "truecolor" else colour.downgrade(ColorSystem.EIGHT_BIT)


def low_cells(app: Any, strips: dict[str, Any], colours: str) -> list[str]:
    """Each drawn run of text (not blanks) below 4.5:1 on the background drawn under it,
    after the app's line filters (a terminal colour name drawn through its ANSI theme)."""
    low = []
    background = TextualColor.parse(app.get_css_variables()["background"])
    for where, strip in strips.items():
        segments = list(strip)
        for line_filter in app.get_line_filters():
            segments = line_filter.apply(segments, background)
        for segment in segments:
            style = segment.style
            if not segment.text.strip() or style is None:
                continue
            assert style.color is not None and style.bgcolor is not None, (where, segment)
            assert not style.dim, f"{where}: dim text halves its contrast"
            value = ratio(as_shown(style.color, colours), as_shown(style.bgcolor, colours))
            if value < MINIMUM:
                low.append(f"{where} {segment.text.strip()[:20]!r}: {value:.2f}")
    return low


@pytest.mark.parametrize("colours", ["truecolor", "256"])
@pytest.mark.parametrize("theme", THEMES)
async def test_every_row_drawn_is_readable(app_factory: Any, theme: str, colours: str) -> None:
    """Every run of text the picker's table, the entry tree and the context list draw - plain
    rows, the cursor row, a search's marked matches - reads at 4.5:1 on the background under it, in truecolor
    and in a 256-colour terminal (tmux without RGB). A part's own colour (a label, a role, a
    muted folder) on the cursor's or a match's background measured 2.9-4:1, 2.5:1 in 256
    colours."""
    app = app_factory()
    async with app.run_test(size=(160, 40)) as pilot:
        app.theme = theme
        await pilot.pause()
        picker = app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        table = picker.query_one(SessionTable)
        strips = {f"table line {y}": table.render_line(y) for y in range(len(table.rows) + 1)}
        screen = await open_from_picker(pilot, "cents", keep_search=True)
        title = screen.query_one("#session-title")  # its folder and path: the path was dim
        strips |= {f"title line {y}": title.render_line(y) for y in range(title.size.height)}
        tree = screen.query_one(EntryTree)
        assert tree.marking and tree.match_position()[1] >= 2  # marked rows among the others
        for row in range(len(tree.rows)):
            tree.move_to(row)
            await pilot.pause()
            top = tree.scroll_offset.y
            for y in range(tree.scrollable_content_region.height):
                strips[f"tree line {top + y} (cursor {row})"] = tree.render_line(y)
        context = screen.query_one(ContextList)
        await wait_for(pilot, lambda: len(context.rows) > 3)
        for focused in (False, True):
            if focused:
                context.focus()
                await wait_for(pilot, lambda: context.has_focus)
            for row in range(len(context.rows)):
                context.cursor_line = row
                for y in range(len(context.rows)):
                    strips[f"context line {y} (cursor {row}, {focused=})"] = context.render_line(y)
        assert len(strips) > 100
        assert low_cells(app, strips, colours) == []
        app.theme = next(other for other in THEMES if other != theme)  # F2: drawn again
        await pilot.pause()
        again = {f"title line {y} after F2": title.render_line(y) for y in range(2)}
        assert low_cells(app, again, colours) == []
        path = [seg for seg in again["title line 1 after F2"] if "/" in seg.text]
        assert path and all(seg.style.bgcolor == title.rich_style.bgcolor for seg in path)


@pytest.mark.parametrize("theme", THEMES)
async def test_inline_code_in_a_message_is_readable(app_factory: Any, theme: str) -> None:
    """`0.1 * 3` in an assistant's text was Rich's "bold cyan on black": 2.9:1 in the light
    theme, whose black is black and whose cyan is dark."""
    from pitui.ui.widgets.message_pane import MessagePane

    app = app_factory()
    async with app.run_test(size=(160, 40)) as pilot:
        app.theme = theme
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        tree.move_to(next(i for i, r in enumerate(tree.rows) if "Found it" in r.text))
        pane = screen.query_one(MessagePane)

        def code_lines() -> dict[str, Any]:
            lines = {
                f"{part} line {y}": part.render_line(y)
                for part in pane.query(".markdown")
                for y in range(part.size.height)
            }
            return {k: v for k, v in lines.items() if "0.1 * 3" in "".join(s.text for s in v)}

        await wait_for(pilot, lambda: bool(code_lines()))
        for colours in ("truecolor", "256"):
            assert low_cells(app, code_lines(), colours) == [], colours
