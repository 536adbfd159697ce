"""A search that takes a while: the status line says it is searching (the rows on screen
are the last question's, dimmed), and a newer question cancels the one it replaces."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from ui_helpers import plain, started
from waiting import wait_for

from pitui.core.catalog.index.index import Index
from pitui.ui.screens.picker import PickerScreen


class SlowTexts:
    """The index's text lookup, held for the query "slowword" until released; counts the
    lookups that ran to their end."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.release = threading.Event()
        self.finished: list[str] = []

    def install(self, monkeypatch: Any) -> None:
        def text_holding(index: Index, value: str, among: set[str], on_text: Any) -> set[str]:
            if value == "slowword":
                while not self.release.wait(0.01):
                    on_text()  # where a cancelled search stops
            found = self.real(index, value, among, on_text)
            self.finished.append(value)
            return found

        monkeypatch.setattr(Index, "text_holding", text_holding)


def status(picker: PickerScreen) -> str:
    return plain(picker.query_one("#picker-status"), 200)


async def test_a_slow_search_says_searching_then_answers(app_factory: Any, monkeypatch) -> None:
    slow = SlowTexts(Index.text_holding)
    slow.install(monkeypatch)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        shown = f"{len(picker.rows):,} shown"
        await pilot.press(*"slowword")
        await wait_for(pilot, lambda: "searching..." in status(picker), "the searching status")
        assert shown not in status(picker)  # the old count is not given as this answer's
        assert picker.query_one("#picker-list").has_class("-searching")
        slow.release.set()
        await wait_for(pilot, lambda: not picker.search_pending, "the answer")
        assert "0 shown" in status(picker) and "searching" not in status(picker)
        assert not picker.query_one("#picker-list").has_class("-searching")


async def test_a_newer_question_cancels_the_search_it_replaces(
    app_factory: Any, monkeypatch
) -> None:
    slow = SlowTexts(Index.text_holding)
    slow.install(monkeypatch)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        await pilot.press(*"slowword")
        await wait_for(pilot, lambda: "searching..." in status(picker), "the searching status")
        for _ in "slowword":
            await pilot.press("backspace")
        await pilot.press(*"checkout")
        await wait_for(pilot, lambda: not picker.search_pending, "the answer to checkout")
        assert "2 shown" in status(picker)
        slow.release.set()
        await pilot.pause(0.2)
        assert "slowword" not in slow.finished  # stopped, not run to its end
        assert "2 shown" in status(picker)


async def test_the_status_says_while_the_text_is_indexed_for_search(
    app_factory: Any, monkeypatch
) -> None:
    release = threading.Event()
    real = Index.text_steps

    def held(index: Index, stop: threading.Event, progress: Any = None) -> Iterator[int]:
        if progress is not None:
            progress(0, 100)  # what the pass reports as it starts
        release.wait(30)  # set by the test (30 s: never a thread left behind)
        yield from real(index, stop, progress)

    monkeypatch.setattr(Index, "text_steps", held)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: "indexing for search 0%" in status(picker), "the status")
        await wait_for(pilot, lambda: picker.rows, "the list while the pass is held")
        assert not release.is_set() and "indexing for search" in status(picker)
        release.set()
        await wait_for(pilot, lambda: "indexing for search" not in status(picker), "the pass's end")


async def test_an_answer_searched_before_the_tool_output_was_indexed_is_searched_again(
    app_factory: Any, monkeypatch
) -> None:
    """A word only a tool's output holds (`cumtime`, in a profile one session ran) finds
    nothing while the pass that indexes tool output is held; once it ends, the picker searches
    again, so the list is not left with an answer the status line no longer says is partial."""
    release = threading.Event()
    real = Index.text_steps

    def held(index: Index, stop: threading.Event, progress: Any = None) -> Iterator[int]:
        release.wait(30)  # set by the test (30 s: never a thread left behind)
        yield from real(index, stop, progress)

    # with a few sessions (no worker processes) the tool output is indexed after the text
    monkeypatch.setattr(Index, "text_steps", held)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        # (not `started`: it waits for every worker, and the secrets pass waits for this one)
        await wait_for(pilot, lambda: picker.scanned, "the picker's first scan")
        await pilot.press(*"cumtime")
        await wait_for(pilot, lambda: " 0 shown" in status(picker), "the partial answer")
        release.set()
        await wait_for(pilot, lambda: " 1 shown" in status(picker), "the answer searched again")
        assert picker.rows[0].summary.name == "Speed up product search"
