"""The picker at 80x24, as a user audit found it: a query's warning readable and the count
honest while the query is in error, Ctrl+P's paths showing each file name's end, and the
selection staying in place when the highlighted session is trashed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import screen_lines, settle, started
from waiting import wait_for

from pitui.core.catalog.search import regex_query
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.widgets.session_preview import SessionPreview
from pitui.ui.widgets.session_table import SessionTable

SMALL = (80, 24)
DEMO_SESSIONS = 12


async def type_query(pilot: Any, picker: PickerScreen, query: str) -> None:
    await pilot.press(*query)
    await wait_for(pilot, lambda: not picker.search_pending, "the list to answer the query")
    await settle(pilot)


async def answered_in_error(pilot: Any, picker: PickerScreen, query: str) -> str:
    """The warning the picker gives for `query`, once the answer to it is on screen."""
    await type_query(pilot, picker, query)
    assert picker.search_error is not None
    return picker.search_error


@pytest.mark.parametrize(
    ("query", "warning"),
    [
        ("after:2027-02-30", "after: 2027-02-30 is not a day that exists"),
        (r"re:(\w+\s?)+\d{7}x(", "Invalid regular expression: /(\\w+\\s?)+\\d{7}x(/"),
        (r"re:(\w+\s?)+\d{7}x", "Regular expression too slow: /(\\w+\\s?)+\\d{7}x/"),
    ],
)
async def test_a_query_in_error_shows_its_whole_warning_and_that_it_is_not_applied(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch, query: str, warning: str
) -> None:
    monkeypatch.setattr(regex_query, "BUDGET", 0.0)  # every regex is too slow
    async with app_factory().run_test(size=SMALL) as pilot:
        picker = await started(pilot)
        error = await answered_in_error(pilot, picker, query)
        assert error.startswith(warning)
        lines = screen_lines(pilot.app)
        assert any(f"⚠ {error}" in line for line in lines), "\n".join(lines)
        status = next(line for line in lines if "last search" in line).strip()
        # the rows listed are the last search's; the whole line fits 80 columns
        assert status.startswith(f"not applied: {len(picker.rows)} rows of the last search")
        assert status.endswith("sort: threaded"), status
        assert picker.query_one("#picker-list").has_class("-searching")  # dimmed


async def test_the_warning_line_goes_once_the_query_is_cleared(app_factory: Any) -> None:
    async with app_factory().run_test(size=SMALL) as pilot:
        picker = await started(pilot)
        await answered_in_error(pilot, picker, "after:2027-02-30")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not picker.search_pending, "the list to answer")
        await settle(pilot)
        lines = screen_lines(pilot.app)
        assert not any("⚠" in line or "not applied" in line for line in lines)
        assert picker.query_one("#picker-status").size.height == 1
        assert f"{DEMO_SESSIONS} shown" in lines[3]  # under the search box, as before
        assert not picker.query_one("#picker-list").has_class("-searching")


async def test_ctrl_p_at_80_columns_shows_the_end_of_each_file_name(app_factory: Any) -> None:
    async with app_factory().run_test(size=SMALL) as pilot:
        picker = await started(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        lines = screen_lines(pilot.app)
        for row in picker.rows:
            end = Path(row.summary.path).name[-12:]
            line = next((line for line in lines if end in line), None)
            assert line is not None, f"{end} in\n" + "\n".join(lines)
            assert "…" in line  # the path's middle gave way
            title = row.summary.name or row.summary.first_message or ""
            assert title[:12] in line  # on its session's line


async def trash_row(pilot: Any, picker: PickerScreen, index: int) -> str:
    """Move the selection to row `index`, trash it (Ctrl+D, Enter); its title."""
    await pilot.press(*["down"] * index)
    table = picker.query_one(SessionTable)
    assert table.cursor_line == index
    trashed = picker.rows[index].summary
    await pilot.press("ctrl+d", "enter")
    await wait_for(pilot, lambda: trashed.path not in {r.summary.path for r in picker.rows})
    await settle(pilot)
    return trashed.path


async def test_trashing_the_last_row_highlights_the_new_last_row(app_factory: Any) -> None:
    async with app_factory().run_test(size=SMALL) as pilot:
        picker = await started(pilot)
        await trash_row(pilot, picker, DEMO_SESSIONS - 1)
        table = picker.query_one(SessionTable)
        assert len(picker.rows) == DEMO_SESSIONS - 1
        assert table.cursor_line == DEMO_SESSIONS - 2
        assert picker.query_one(SessionPreview).summary is picker.rows[-1].summary


async def test_trashing_a_row_highlights_the_row_that_took_its_place(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=SMALL) as pilot:
        picker = await started(pilot)
        after_it = picker.rows[4].summary.path
        await trash_row(pilot, picker, 3)
        table = picker.query_one(SessionTable)
        assert table.cursor_line == 3
        assert table.highlighted_path == after_it
        assert picker.query_one(SessionPreview).summary is picker.rows[3].summary
