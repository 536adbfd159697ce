"""The message pane's text is selected with the mouse and copied (Ctrl+C) as it is shown;
after the window shrinks and grows again, the body sits right under the header."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style
from test_message_pane import PaneApp, make_entry, message, show, shown_lines
from textual.widgets import Static
from ui_helpers import open_from_picker, settle

from pitui.ui.widgets.message_pane import EntryHeader, MessagePane


async def drag(pilot: Any, widget: Static, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press the mouse at `start` in `widget`, move it over to `end` and release it there."""
    await pilot.mouse_down(widget, start)
    await pilot.hover(widget, ((start[0] + end[0]) // 2, start[1]))
    await pilot.hover(widget, end)
    await pilot.mouse_up(widget, end)
    await pilot.pause()


def backgrounds(widget: Static, y: int) -> list[tuple[str, Any]]:
    """Each character of line `y` with the background it is drawn on."""
    return [
        (char, (style or Style()).bgcolor)
        for text, style, _ in widget.render_line(y)
        for char in text
    ]


def copies_of(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app copies to the clipboard, in order."""
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    return copied


def highlighted(before: list[tuple[str, Any]], after: list[tuple[str, Any]]) -> str:
    """The characters drawn on another background now."""
    return "".join(char for (char, was), (_, now) in zip(before, after, strict=True) if was != now)


async def test_a_drag_over_the_body_selects_what_is_shown_and_ctrl_c_copies_it(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    copied = copies_of(app, monkeypatch)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await open_from_picker(pilot, "product search")
        body = screen.query_one(MessagePane).query(".part").first(Static)
        lines = shown_lines(body)
        assert lines[0].startswith("Product search takes two seconds"), lines
        assert len(lines) > 1, "the first paragraph wraps at this width"
        unselected = [backgrounds(body, 0), backgrounds(body, 1)]
        await drag(pilot, body, (8, 0), (8, 1))  # the end is inclusive, as in Textual
        assert highlighted(unselected[0], backgrounds(body, 0)).rstrip() == lines[0][8:]
        assert highlighted(unselected[1], backgrounds(body, 1)) == lines[1][:9]
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert copied == [f"{lines[0][8:]}\n{lines[1][:9]}"]


async def test_a_drag_from_the_header_into_the_body_copies_both(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    copied = copies_of(app, monkeypatch)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await open_from_picker(pilot, "product search")
        pane = screen.query_one(MessagePane)
        header, body = pane.query_one(EntryHeader), pane.query(".part").first(Static)
        await pilot.mouse_down(header, (1, 0))  # header's padding is 1
        await pilot.hover(body, (2, 0))
        await pilot.hover(body, (6, 0))
        await pilot.mouse_up(body, (6, 0))
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        head, body_lines = shown_lines(header), shown_lines(body)
    # across widgets Textual ends a selection before the pointer's character
    assert copied == ["\n".join([*head, body_lines[0][:6]])]


async def test_session_text_is_copied_as_written_never_read_as_markup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "[bold red]not bold[/] [link=https://x]y[/link] $x"
    app = PaneApp()
    copied = copies_of(app, monkeypatch)
    async with app.run_test(size=(100, 20)) as pilot:
        pane = await show(pilot, make_entry(message("user", content=text)))
        body = pane.query(".part").first(Static)
        assert shown_lines(body)[0] == text
        await drag(pilot, body, (0, 0), (len(text) - 1, 0))
        app.screen.action_copy_text()
    assert copied == [text]


async def test_after_the_window_shrinks_and_grows_the_body_is_right_under_the_header(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(100, 24)) as pilot:
        screen = await open_from_picker(pilot, "product search")
        await pilot.press("end")  # the last entry: a long header, many lines when narrow
        await settle(pilot)
        pane = screen.query_one(MessagePane)

        def header_and_gap() -> tuple[int, int]:
            header = pane.query_one(EntryHeader)
            body = pane.query(".part").first(Static)
            return header.region.height, body.region.y - header.region.bottom

        before = header_and_gap()
        assert before[1] == 1, "one blank line (the header's margin)"
        await pilot.resize_terminal(40, 12)
        await settle(pilot)
        await pilot.resize_terminal(100, 24)
        await settle(pilot)
        assert header_and_gap() == before
