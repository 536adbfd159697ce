"""Pilot tests of the session screen's size view (alt+s): the breakdown of `pitui du
FILE`, and Enter on a largest entry jumps the tree to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import DataTable
from ui_helpers import open_from_picker, plain, settle
from waiting import wait_for

from pitui.ui.screens.sizes import SizeViewScreen
from pitui.ui.widgets.entry_tree import EntryTree

SIZE = (120, 36)


def lines_by_size(path: Path) -> list[tuple[int, str | None, str]]:
    """Each line's bytes (newline included), id and type, largest first (computed here,
    apart from the core's breakdown)."""
    out = []
    for line in path.read_bytes().splitlines(keepends=True):
        raw = json.loads(line)
        out.append((len(line), raw.get("id"), raw.get("type")))
    return sorted(out, key=lambda item: -item[0])


async def open_sizes(pilot: Any, key: str = "alt+s") -> SizeViewScreen:
    await pilot.press(key)
    view = pilot.app.screen
    assert isinstance(view, SizeViewScreen)
    await wait_for(pilot, lambda: bool(view.largest))
    await settle(pilot)
    return view


async def test_breakdown_as_du_and_enter_jumps(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        start, before = tree.highlighted, tree.cursor_line
        await open_sizes(pilot)
        await pilot.press("down", "escape")  # Esc: back, the cursor where it was
        await settle(pilot)
        assert pilot.app.screen is screen and tree.cursor_line == before
        view = await open_sizes(pilot, "alt+s")
        expected = lines_by_size(screen.path)
        assert [e.bytes for e in view.largest] == [size for size, _, _ in expected][:20]
        kinds = view.query_one("#sizes-kinds", DataTable)
        assert kinds.row_count >= 3
        largest = view.query_one("#sizes-largest", DataTable)
        said = [str(largest.get_row_at(i)[-1]) for i in range(largest.row_count)]
        assert any("prices are stored as" in text for text in said), "the entry's first words"
        total = screen.path.stat().st_size
        assert f"{total / 1024:.1f} KB" in plain(view.query_one("#sizes-title"), 120)
        # the largest entry that is not the cursor's: Enter shows it in the tree
        index, target = next(
            (i, e) for i, e in enumerate(view.largest)
            if e.id and e.kind != "session" and e.id != start.id
        )  # fmt: skip
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen
        assert tree.highlighted is not None and tree.highlighted.id == target.id
        assert screen.entry.id == target.id  # the message pane follows


async def test_jump_past_a_search_and_a_filter_that_hide_the_entry(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        tree.set_filter("user-only")
        tree.search("rounding")  # a search shows only its matches
        await settle(pilot)
        assert tree.search_text
        view = await open_sizes(pilot)
        index, target = next(
            (i, e) for i, e in enumerate(view.largest) if e.kind.startswith("toolResult")
        )
        assert tree.model.index_of(target.id) is None  # hidden by user-only
        view.query_one("#sizes-largest", DataTable).move_cursor(row=index)
        await pilot.press("enter")
        await settle(pilot)
        assert tree.filter == "all" and not tree.search_text
        assert tree.highlighted.id == target.id


async def test_not_a_session_says_so(app_factory: Any, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.jsonl"
    bogus.write_text('{"type": "message"}\n')
    async with app_factory().run_test(size=SIZE) as pilot:
        await pilot.app.push_screen(SizeViewScreen(bogus))
        view = pilot.app.screen
        await wait_for(pilot, lambda: "not a Pi session" in plain(view.query_one("#sizes-note")))
        await pilot.press("enter")  # no entries: nothing happens
        assert pilot.app.screen is view


async def test_enter_after_arrows_typed_ahead(app_factory: Any) -> None:
    """Keys that arrive together are taken in order: Enter goes to the row the arrows reach."""
    from textual import events

    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        view = await open_sizes(pilot)
        target = view.largest[3]
        for key in ("down", "down", "down", "enter"):
            pilot.app.post_message(events.Key(key, "\r" if key == "enter" else None))
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        await settle(pilot)
        assert screen.query_one(EntryTree).highlighted.id == target.id
