"""The app's side of a kept first screen: it keeps its complete first screen when the user has
not acted yet, holds its frames while a kept one is on the terminal, and gives the keys
pressed meanwhile to the list the user saw, in order."""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.pilot import Pilot
from ui_helpers import settle

from pitui.ui import first_screen
from pitui.ui.format import age, age_good_until
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.widgets import session_preview
from pitui.ui.widgets.session_preview import exchanges
from pitui.ui.widgets.session_table import SessionTable

SIZE = (120, 36)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class FakeKept:
    """A kept screen as `pitui.commands.first_frame.KeptScreen` gives it to the app."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self.size = SIZE
        self.tty_before = None
        self.handed_over = False
        self.kept: list[tuple[str, float]] = []

    def keep(self, screen: str, good_until: float) -> None:
        self.kept.append((screen, good_until))


async def _until(pilot: Pilot[Any], condition: Any, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def test_an_undisturbed_launch_keeps_its_complete_first_screen(app_factory: Any) -> None:
    kept = FakeKept(shown=False)
    app = app_factory(kept_screen=kept)
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: kept.kept)
        picker = app.screen
        assert isinstance(picker, PickerScreen) and picker.scanned
        ((screen, good_until),) = kept.kept
        text = ANSI.sub("", screen)
        first = picker.rows[0].summary
        assert (first.name or first.first_message)[:20] in text
        assert f"{len(picker.rows)} shown" in text
        assert good_until > app.now().timestamp()  # the ages on screen read the same until then
        assert screen == app.whole_screen()  # what the terminal shows now


async def test_no_screen_is_kept_once_the_user_acted(app_factory: Any) -> None:
    kept = FakeKept(shown=False)
    app = app_factory(kept_screen=kept)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down")
        picker = app.screen
        await _until(pilot, lambda: isinstance(picker, PickerScreen) and picker.scanned)
        await settle(pilot)
        await pilot.pause(0.8)  # longer than the screen takes to settle
        assert kept.kept == []


async def test_keys_pressed_over_a_kept_screen_reach_the_list_it_showed(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    preview_may_load = threading.Event()

    def slow_exchanges(path: Path) -> list[tuple[str, str]]:
        preview_may_load.wait(30)  # the first screen is complete once its preview is read
        return exchanges(path)

    monkeypatch.setattr(session_preview, "exchanges", slow_exchanges)
    monkeypatch.setattr(first_screen, "HOLD_AT_MOST", 60.0)  # however slow the machine
    kept = FakeKept(shown=True)
    app = app_factory(kept_screen=kept)
    async with app.run_test(size=SIZE) as pilot:
        assert app._holding
        await pilot.press("down", "down")  # before any list is there
        await _until(pilot, lambda: isinstance(app.screen, PickerScreen) and app.screen.rows)
        table = app.screen.query_one(SessionTable)
        await _until(pilot, lambda: table.cursor == 2)  # both keys, in order, on the list
        assert not app._holding  # shown once its list was in: the preview is still loading
        assert app._waiting_input == []
        preview_may_load.set()
        await settle(pilot)
        assert kept.kept == []  # it was already kept


async def test_without_keys_the_kept_screen_stays_until_the_whole_screen_is_in(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    preview_may_load = threading.Event()

    def slow_exchanges(path: Path) -> list[tuple[str, str]]:
        preview_may_load.wait(30)
        return exchanges(path)

    monkeypatch.setattr(session_preview, "exchanges", slow_exchanges)
    monkeypatch.setattr(first_screen, "HOLD_AT_MOST", 60.0)
    app = app_factory(kept_screen=FakeKept(shown=True))
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, PickerScreen) and app.screen.scanned)
        await pilot.pause(0.3)
        assert app._holding  # the list is in, the preview is not
        preview_may_load.set()
        await _until(pilot, lambda: not app._holding)


async def test_a_resize_shows_the_apps_own_screen_at_once(app_factory: Any) -> None:
    kept = FakeKept(shown=True)
    app = app_factory(kept_screen=kept)
    async with app.run_test(size=SIZE) as pilot:
        assert app._holding
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not app._holding
        await _until(pilot, lambda: isinstance(app.screen, PickerScreen) and app.screen.scanned)
        await settle(pilot)
        assert kept.kept == []


@given(
    ago=st.integers(min_value=-3600, max_value=4 * 365 * 86_400),
    fraction=st.floats(min_value=0, max_value=0.999),
)
def test_an_age_reads_the_same_until_the_moment_given_then_changes(
    ago: int, fraction: float
) -> None:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    then = now - timedelta(seconds=ago + fraction)
    until = age_good_until(then, now)
    last = datetime.fromtimestamp(until, UTC)
    assert age(then, last) == age(then, now)
    assert age(then, last + timedelta(seconds=1)) != age(then, now)


async def test_keys_pressed_before_the_list_act_on_it_without_a_kept_screen(
    app_factory: Any,
) -> None:
    app = app_factory(kept_screen=FakeKept(shown=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down")  # before any list is there
        await _until(pilot, lambda: isinstance(app.screen, PickerScreen) and app.screen.rows)
        table = app.screen.query_one(SessionTable)
        await _until(pilot, lambda: table.cursor == 2)
        assert app._waiting_input == []
