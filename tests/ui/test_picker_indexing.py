"""The picker while the index is being built (issue 27): a search answers from what is
indexed so far, and the status line says so."""

from __future__ import annotations

from typing import Any

from ui_helpers import plain, settle, started
from waiting import wait_for

from pitui.ui.worker_messages import CatalogProgress

SIZE = (160, 40)


async def test_a_search_while_indexing_says_it_searched_what_is_indexed(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        picker.post_message(CatalogProgress(5, 12))  # as the scan worker says it
        await settle(pilot)
        status = plain(picker.query_one("#picker-status"), 300)
        assert "indexing 5/12" in status and "so far" not in status
        await pilot.press(*"checkout")
        await wait_for(pilot, lambda: not picker.search_pending, "the list to answer")
        await settle(pilot)
        status = plain(picker.query_one("#picker-status"), 300)
        assert len(picker.rows) == 2 and "2 shown so far · indexing 5/12" in status


async def test_the_scan_waits_for_the_list_the_index_knows(
    app_factory: Any, monkeypatch: Any
) -> None:
    """With an index from an earlier run, the list it knows is shown first and only then
    are the files scanned for changes (both are Python work on one interpreter: run side by
    side, the scan delayed the list)."""
    from pitui.core.catalog.catalog import Catalog

    async with app_factory().run_test(size=SIZE) as pilot:  # builds the index
        first = await started(pilot)
        await wait_for(pilot, lambda: first.scanned, "the first scan")
    shown_at_scan: list[int] = []
    scan = Catalog.scan
    app = app_factory()

    def scan_after_the_list(catalog: Catalog, *args: Any, **kwargs: Any) -> Any:
        shown_at_scan.append(len(app.screen.rows))
        return scan(catalog, *args, **kwargs)

    monkeypatch.setattr(Catalog, "scan", scan_after_the_list)
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await wait_for(pilot, lambda: picker.scanned, "the scan")
        assert shown_at_scan and shown_at_scan[0] == len(picker.rows) > 0


async def test_an_answer_before_the_tool_output_is_indexed_says_so_far(
    app_factory: Any, monkeypatch: Any
) -> None:
    """A word found only in tool output: 1,880 shown while the index held 3,381, and the
    status line said "1,880 shown" as if it were the whole answer."""
    from pitui.core.catalog.catalog import Catalog
    from pitui.ui.worker_messages import SearchIndexProgress

    pending = [True]
    monkeypatch.setattr(Catalog, "tools_pending", property(lambda self: pending[0]))
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        status = plain(picker.query_one("#picker-status"), 300)
        assert "so far" not in status, "no search: the whole list"
        await pilot.press(*"checkout")
        await wait_for(pilot, lambda: not picker.search_pending, "the list to answer")
        await settle(pilot)
        count = f"{len(picker.rows)} shown so far"
        assert count in plain(picker.query_one("#picker-status"), 300)
        pending[0] = False
        picker.post_message(SearchIndexProgress(2, 2))  # the tool output is in: asked again
        await wait_for(
            pilot, lambda: "so far" not in plain(picker.query_one("#picker-status"), 300)
        )


async def test_an_answer_missing_tool_output_grows_while_it_is_indexed(
    app_factory: Any, monkeypatch: Any
) -> None:
    """A search typed while the tool output was indexed after the listing kept its first
    answer (615 of 3,381) for the 34 s the pass took: it is now asked again as the pass goes
    on (every 2 s at most), and no more once the answer no longer misses anything."""
    from pitui.core.catalog.catalog import Catalog
    from pitui.ui.worker_messages import SearchIndexProgress

    monkeypatch.setattr(Catalog, "tools_pending", property(lambda self: True))
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await pilot.press(*"checkout")
        await wait_for(pilot, lambda: not picker.search_pending, "the list to answer")
        asked = picker._asked
        picker.post_message(SearchIndexProgress(10, 100))
        await settle(pilot)
        assert picker._asked == asked, "asked again at once"
        picker._last_research -= 2.5  # as if 2.5 s had passed since it was asked
        picker.post_message(SearchIndexProgress(50, 100))
        await wait_for(pilot, lambda: picker._asked == asked + 1, "asked again 2 s later")


async def test_a_slow_search_is_not_run_again_at_every_step_of_the_listing(
    app_factory: Any, monkeypatch: Any
) -> None:
    """A phrase searched in the texts (not yet indexed) took seconds, and the listing asked
    for it again every half second: a first launch on 10,000 sessions listed them in 21 s
    instead of 8.7. A search is asked again at most every 4 times what the last one took."""
    import time

    from pitui.core.catalog.catalog import Catalog

    search = Catalog.search
    calls: list[float] = []

    def slow(catalog: Catalog, *args: Any, **kwargs: Any) -> Any:
        calls.append(time.monotonic())
        time.sleep(0.5)
        return search(catalog, *args, **kwargs)

    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        monkeypatch.setattr(Catalog, "search", slow)
        await pilot.press(*"checkout")
        await wait_for(pilot, lambda: not picker.search_pending, "the slow answer")
        asked = len(calls)
        for done in range(20):  # two seconds of the listing's progress
            picker.post_message(CatalogProgress(done, 100))
            await pilot.pause(0.1)
        assert len(calls) - asked <= 2, [round(t - calls[0], 2) for t in calls]
