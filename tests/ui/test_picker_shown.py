"""The picker acts on what it shows: a new query, sort, scope or filter highlights the first
row of its answer (as Pi's `selectedIndex = 0`), the preview and the count follow, and a key
pressed before the answer came acts on the answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import plain, settle, started
from waiting import wait_for

from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.screens import picker as picker_module
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.session_preview import SessionPreview
from pitui.ui.widgets.session_table import SessionTable

SIZE = (160, 40)


async def answered(pilot: Any, picker: PickerScreen) -> None:
    await wait_for(pilot, lambda: not picker.search_pending)
    await settle(pilot)


def first_shown(picker: PickerScreen) -> Any:
    return picker.query_one(SessionTable).rows[0].summary


@pytest.fixture
def slow_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing waits a second before searching: every key below arrives before the answer."""
    monkeypatch.setattr(picker_module, "SEARCH_DELAY", 1.0)


async def test_new_query_highlights_its_first_row(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        table = picker.query_one(SessionTable)
        titles = [r.summary.name or r.summary.first_message for r in picker.rows]
        target = next(i for i, t in enumerate(titles) if "Checkout" in t and i > 0)
        for _ in range(target):  # from the search box, as Pi: each Down moves
            await pilot.press("down")
        assert table.cursor_line == target
        kept = table.highlighted
        await pilot.press(*"checkout")
        await answered(pilot, picker)
        assert kept in [r.summary for r in picker.rows]  # still listed, yet not kept
        assert table.cursor_line == 0 and table.highlighted is first_shown(picker)
        assert picker.query_one(SessionPreview).summary is table.highlighted
        status = plain(picker.query_one("#picker-status"), 200)
        assert f"{len(picker.rows)} shown" in status and len(picker.rows) < 12


@pytest.mark.parametrize("key", ["ctrl+s", "tab", "ctrl+n"])
async def test_sort_scope_and_filter_highlight_the_first_row(app_factory: Any, key: str) -> None:
    async with app_factory(all_scope=False).run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        table = picker.query_one(SessionTable)
        await pilot.press("down", "down")
        assert table.cursor_line == 2
        await pilot.press(key)
        await answered(pilot, picker)
        assert picker.rows and table.cursor_line == 0
        assert picker.query_one(SessionPreview).summary is first_shown(picker)


async def test_enter_before_the_answer_opens_the_answers_first_row(
    app_factory: Any, slow_search: None
) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        before = first_shown(picker)
        await pilot.press(*"zsh", "enter")
        assert picker.search_pending and pilot.app.screen is picker  # waits for the answer
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen))
        opened = pilot.app.screen.path
        assert opened == Path(first_shown(picker).path) != Path(before.path)
        assert "zsh" in (first_shown(picker).name or "").lower()


async def test_trash_and_rename_before_the_answer_name_the_answers_row(
    app_factory: Any, slow_search: None
) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press(*"neovim", "ctrl+d")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal))
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(".dialog-body")))  # composed
        body = plain(pilot.app.screen.query_one(".dialog-body"), 200)
        assert "Neovim: set up pyright" in body
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace")
        await pilot.press("backspace", *"zsh", "ctrl+r")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TextInputModal))
        await wait_for(pilot, lambda: bool(pilot.app.screen.query("#text-input")))  # composed
        assert pilot.app.screen.query_one("#text-input").value == "Speed up zsh startup"
