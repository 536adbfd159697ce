"""A double-click (Textual then selects the words under the mouse, calling the widget's
`query()`) and a triple-click on each main widget of the picker and the session screen: the
app stays up and on the same screen."""

from __future__ import annotations

from typing import Any

from ui_helpers import open_from_picker, settle, started

from pitui.ui.screens.session import SessionScreen

SIZE = (160, 40)
# the list's header: a double-click on a row opens its session
PICKER_WIDGETS = [("#search", None), ("#picker-status", None), ("#sessions", (2, 0)),
                  ("#preview", None)]  # fmt: skip
SESSION_WIDGETS = [("#session-title", None), ("#entry-tree", None), ("#message-pane", None),
                   ("#context-pane", None)]  # fmt: skip


async def click_each(pilot: Any, widgets: list[tuple[str, tuple[int, int] | None]]) -> None:
    screen = pilot.app.screen
    for selector, offset in widgets:
        for times in (2, 3):
            assert screen.query_one(selector).region.area, selector  # on screen
            if offset is None:
                await pilot.click(selector, times=times)
            else:
                await pilot.click(selector, offset=offset, times=times)
            await settle(pilot)
            assert pilot.app.is_running and pilot.app.return_code is None, selector
            assert pilot.app.screen is screen, selector


async def test_double_and_triple_clicks_on_the_picker_and_the_session_keep_the_app_up(
    app_factory: Any,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await click_each(pilot, PICKER_WIDGETS)
        await pilot.press(*"rounding")
        await settle(pilot)
        await click_each(pilot, PICKER_WIDGETS)  # the preview shows the search's matches
        await pilot.press("ctrl+u")
        screen = await open_from_picker(pilot, "rounding", keep_search=True)
        assert isinstance(screen, SessionScreen)
        await click_each(pilot, SESSION_WIDGETS)
    assert app.return_code is None


async def test_a_double_click_on_the_highlighted_session_opens_it_once(app_factory: Any) -> None:
    """A click on the highlighted session opens it; the double-click's second click, sent to
    the picker with it, opened it a second time, so the first Escape went back only to the
    first copy. Escape now goes back to the picker at once, as the footer says."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        picker = app.screen  # the first row is highlighted
        await pilot.click("#sessions", offset=(4, 1), times=2)
        await settle(pilot)
        assert isinstance(app.screen, SessionScreen)
        assert app.screen_stack[-2] is picker  # opened once
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is picker
