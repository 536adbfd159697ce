"""Pilot tests of a user audit's findings: Textual's own commands and keys kept out of the
palette and the help, "1 message", the files view's rows naming the entry Enter shows,
readable stats axes on a large store, and the trash view naming each session."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_context_pane import PaneApp, chain, user
from textual import events
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot
from ui_helpers import open_from_picker, plain, screen_lines, settle, started
from waiting import wait_for

from pitui.core.changes import trash
from pitui.core.session.context import build_context
from pitui.ui.screens.files_view import FilesViewScreen
from pitui.ui.screens.help import HelpScreen
from pitui.ui.screens.stats import StatsScreen
from pitui.ui.screens.trash_view import TrashViewScreen
from pitui.ui.widgets.context_pane import ContextPane
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.message_pane import MessagePane

SIZE = (120, 36)


def command_titles(app: Any) -> set[str]:
    return {command.title for command in app.get_system_commands(app.screen)}


async def test_the_palette_offers_no_maximize_or_minimize(app_factory: Any) -> None:
    """Textual's Maximize hid the picker's list behind its search box, with no way back but
    Esc; on the session screen pitui's own Alt+Z maximises a pane (restored by Esc)."""
    async with app_factory().run_test(size=SIZE) as pilot:
        await started(pilot)
        titles = command_titles(pilot.app)
        assert "Maximize" not in titles and "Screenshot" in titles
        screen = await open_from_picker(pilot, "rounding")
        assert "Maximize" not in command_titles(pilot.app)
        await pilot.press("alt+z")
        await settle(pilot)
        assert screen.maximized is not None
        titles = command_titles(pilot.app)
        assert not titles & {"Maximize", "Minimize"}
        assert any(title.startswith("Maximise the focused pane") for title in titles)


async def test_help_lists_tab_in_pituis_words_and_no_textual_defaults(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 60)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        screen.query_one(MessagePane).focus()
        await pilot.press("f1")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        shown = "\n".join(plain(static, 400) for static in help_screen.query(Static))
        for textual_words in ("Focus Next", "Focus Previous", "super+c", "Copy selected text"):
            assert textual_words not in shown, textual_words
        assert re.search(r"\btab +Go to the next pane", shown)
        assert re.search(r"\bshift\+tab +Go to the previous pane", shown)
        await pilot.press("escape")
        await pilot.press("tab")  # the help's words: the next pane has the focus
        assert screen.focused is not None and not isinstance(screen.focused, MessagePane)


async def test_the_context_header_says_1_message() -> None:
    async with PaneApp().run_test(size=(100, 10)) as pilot:
        pane = pilot.app.query_one(ContextPane)
        pane.show_context(build_context(chain([user("hello", id="u0")]), "u0"))
        await pilot.pause()
        header = screen_lines(pilot.app)[0]
        assert re.search(r"\b1 message\b", header), header
        assert "messages" not in header


async def test_a_files_view_call_row_names_the_entry_enter_shows(app_factory: Any) -> None:
    """The tree shows a call at its result's entry, where Enter goes: the row names that
    entry, not the assistant message holding the call."""
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press("alt+w")
        view = pilot.app.screen
        assert isinstance(view, FilesViewScreen)
        await wait_for(pilot, lambda: bool(view.files))
        await settle(pilot)
        await pilot.press("tab", "down")
        await settle(pilot)
        calls = view.query_one("#files-calls", DataTable)
        named = str(calls.get_row_at(calls.cursor_row)[1])
        chosen = view.files[0].calls[calls.cursor_row]
        assert chosen.entry_id != chosen.call_entry_id  # a call with its result
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen
        assert screen.query_one(EntryTree).highlighted.id == named


def big_store(root: Path) -> Path:
    """A store of one session whose one answer read 7 billion cached tokens for $5,939."""
    folder = root / "sessions" / "--home-demo-big--"
    folder.mkdir(parents=True)
    usage = {
        "input": 1000,
        "output": 2000,
        "cacheRead": 7_008_584_800,
        "cacheWrite": 0,
        "totalTokens": 7_008_587_800,
        "cost": {"input": 0, "output": 0, "cacheRead": 5939.4, "cacheWrite": 0, "total": 5939.4},
    }
    answer = {
        "role": "assistant",
        "content": [{"type": "text", "text": "Done."}],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-opus-4-1",
        "usage": usage,
        "stopReason": "stop",
        "timestamp": 1796395781250,
    }
    lines = [
        {
            "type": "session",
            "version": 3,
            "id": "01a24187-ab60-7047-bd16-21b8d723f888",
            "timestamp": "2025-12-04T14:49:00.000Z",
            "cwd": "/home/demo/big",
        },
        {
            "type": "message",
            "id": "u1",
            "parentId": None,
            "timestamp": "2025-12-04T14:49:38.579Z",
            "message": {"role": "user", "content": "Read it all", "timestamp": 1796395778575},
        },
        {
            "type": "message",
            "id": "a1",
            "parentId": "u1",
            "timestamp": "2025-12-04T14:49:41.253Z",
            "message": answer,
        },
    ]
    path = folder / "2025-12-04T14-49-00-000Z_01a24187-ab60-7047-bd16-21b8d723f888.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return root / "sessions"


async def test_stats_axes_use_compact_units(app_factory: Any, tmp_path: Path) -> None:
    async with app_factory(sessions_root=big_store(tmp_path / "big")).run_test(
        size=(160, 48)
    ) as pilot:
        await started(pilot)
        await pilot.press("alt+s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, StatsScreen))
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.stats is not None)
        await settle(pilot)
        assert screen.stats.total.tokens > 7e9
        lines = screen_lines(pilot.app)
        for plot_id in ("#plot-tokens-model", "#plot-cost-model"):
            plot = screen.query_one(plot_id, PlotextPlot).region
            drawn = [line[plot.x : plot.right] for line in lines[plot.y : plot.bottom]]
            labels = [m.group(1) for line in drawn if (m := re.match(r" *(\S+)┤", line))]
            assert len(labels) >= 3, drawn
            assert all(re.fullmatch(r"\d+(\.\d+)?[kMG]?", label) for label in labels), labels
            assert all(len(label) <= 5 for label in labels), labels
        assert any("8G┤" in line or "6G┤" in line for line in lines)
        assert not any("(k)" in line for line in lines)  # the axis carries the unit


@pytest.mark.usefixtures("home_trash")
async def test_the_trash_view_names_each_session_at_80_columns(app_factory: Any) -> None:
    """Each trashed session: its title as the picker showed it, over where it was, cut in
    the middle so that its file name's end shows."""
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        victims = [row.summary for row in picker.rows[:2]]
        for summary in victims:
            trash.trash_session(summary.path)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        await wait_for(pilot, lambda: len(view.items) == 2)
        await settle(pilot)
        lines = [line.rstrip() for line in screen_lines(pilot.app)]
        for summary in victims:
            title = summary.name or summary.first_message
            at = next(i for i, line in enumerate(lines) if title[:24] in line)
            path = lines[at + 1].strip()
            assert "…" in path and len(lines[at + 1]) <= 80, path
            assert summary.path.endswith(path.split("…")[1])


@pytest.mark.usefixtures("home_trash")
async def test_down_and_enter_sent_at_once_restore_the_row_below(app_factory: Any) -> None:
    """Enter, a priority key, ran before the table handled the Down typed just before it
    (a terminal sends both in one read): the first row was restored, not the second."""
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        for row in picker.rows[:2]:
            trash.trash_session(row.summary.path)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        await wait_for(pilot, lambda: len(view.items) == 2)
        await settle(pilot)
        first, second = view.items
        for key in (events.Key("down", None), events.Key("enter", "\r")):  # as one read
            key.set_sender(pilot.app)
            pilot.app._driver.send_message(key)
        await settle(pilot)
        await wait_for(pilot, lambda: Path(second.original).exists())
        await settle(pilot)
        assert not Path(first.original).exists()


@pytest.mark.usefixtures("home_trash")
async def test_the_trash_is_listed_before_its_titles_are_read(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading each title takes about 1 ms (1.1 s for 1,000 trashed sessions): the list
    waited for all of them; it now shows at once, each title "…" until read."""
    import threading

    from pitui.ui.screens import trash_view

    release = threading.Event()
    real = trash_view.session_title
    monkeypatch.setattr(trash_view, "session_title", lambda p: (release.wait(10), real(p))[1])
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        summary = picker.rows[0].summary
        trash.trash_session(summary.path)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        await wait_for(pilot, lambda: len(view.items) == 1)
        await pilot.pause()
        session = view.query_one(DataTable).get_row_at(0)[-1]
        assert view.titles == [None] and session.plain.startswith("…\n")  # listed already
        release.set()
        await wait_for(pilot, lambda: view.titles == [summary.name or summary.first_message])


@pytest.mark.usefixtures("home_trash")
async def test_restore_leaves_the_footer_once_the_trash_is_empty(app_factory: Any) -> None:
    """The footer offered "⏎ Restore" over "The trash holds no Pi session", and the key did
    nothing."""
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        trash.trash_session(picker.rows[0].summary.path)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        await wait_for(pilot, lambda: len(view.items) == 1)
        await settle(pilot)
        assert "Restore" in screen_lines(pilot.app)[-1]
        await pilot.press("enter")
        await wait_for(pilot, lambda: not view.items)
        await settle(pilot)
        assert "Restore" not in screen_lines(pilot.app)[-1]
