"""Pilot tests of the session screen's files view (alt+w): every file the session read,
wrote or edited with its counts, and Enter shows a file's calls in the tree."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from textual.widgets import DataTable
from ui_helpers import open_from_picker, settle
from waiting import wait_for

from pitui.ui.screens.files_view import FilesViewScreen
from pitui.ui.widgets.entry_tree import EntryTree

SIZE = (120, 36)


def calls_by_path(path: Path) -> tuple[dict[str, Counter[str]], dict[str, str]]:
    """Each path argument's read/write/edit calls, and each call id's result entry, read
    from the file here (apart from the core)."""
    counts: dict[str, Counter[str]] = {}
    results = {}
    for line in path.read_text().splitlines():
        message = json.loads(line).get("message") or {}
        if message.get("role") == "toolResult":
            results[message["toolCallId"]] = json.loads(line)["id"]
        for block in message.get("content") or []:
            if not isinstance(block, dict) or block.get("type") != "toolCall":
                continue
            if block["name"] in ("read", "write", "edit"):
                path_arg = block["arguments"]["path"]
                counts.setdefault(path_arg, Counter())[block["name"]] += 1
    return counts, results


def cells(table: DataTable[Any], row: int) -> list[str]:
    return [str(getattr(cell, "plain", cell)) for cell in table.get_row_at(row)]


async def open_files(pilot: Any) -> FilesViewScreen:
    await pilot.press("alt+w")
    view = pilot.app.screen
    assert isinstance(view, FilesViewScreen)
    await wait_for(pilot, lambda: bool(view.files))
    await settle(pilot)
    return view


async def test_files_with_counts_and_enter_shows_their_calls(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("f1")  # the help lists it
        await settle(pilot)
        rows = [row for _, rows in pilot.app.screen._groups() for row in rows]
        assert any("alt+w" in keys and "files this session" in text for keys, text in rows)
        await pilot.press("escape")
        await settle(pilot)
        view = await open_files(pilot)
        expected, results = calls_by_path(screen.path)
        table = view.query_one("#files-list", DataTable)
        shown = {cells(table, row)[0]: cells(table, row)[1:4] for row in range(table.row_count)}
        assert shown == {
            path: [str(counts[t]) if counts[t] else "·" for t in ("read", "write", "edit")]
            for path, counts in expected.items()
        }
        busy = next(r for r in range(table.row_count) if len(view.files[r].calls) > 1)
        table.move_cursor(row=busy)
        await settle(pilot)
        calls = view.query_one("#files-calls", DataTable)
        assert calls.row_count == len(view.files[busy].calls)
        # the entry named is the result's (where Enter goes), the time the call's: said so
        labels = [str(column.label) for column in calls.columns.values()]
        assert labels == ["Call", "Result entry", "Called at", "Result"]
        first, second = view.files[busy].calls[:2]
        await pilot.press("enter")  # the file's first call
        await settle(pilot)
        assert pilot.app.screen is screen
        assert first.entry_id in results.values()  # shown at its result
        assert tree.highlighted.id == first.entry_id
        view = await open_files(pilot)
        view.query_one("#files-list", DataTable).move_cursor(row=busy)
        await settle(pilot)
        await pilot.press("tab", "down", "enter")  # a call of its own
        await settle(pilot)
        assert pilot.app.screen is screen
        assert tree.highlighted.id == second.entry_id
        await open_files(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is screen and tree.highlighted.id == second.entry_id


async def test_not_a_session_says_so(app_factory: Any, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.jsonl"
    bogus.write_text("not json\n")
    async with app_factory().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.app.push_screen(FilesViewScreen(bogus))
        view = pilot.app.screen
        note = view.query_one("#files-note")
        await wait_for(pilot, lambda: "Reading" not in str(note.render()))
        assert "bogus.jsonl" in str(note.render()) or "session" in str(note.render())
