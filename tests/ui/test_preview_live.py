"""The preview of a session being written: each change shows it again without an overlay
(Textual's loading indicator, set on every change, piled up detached indicators and memory)
and without blanking what it showed until the new read arrives."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.widgets import LoadingIndicator
from ui_helpers import plain, started
from waiting import wait_for

from pitui.ui.widgets.session_preview import SessionPreview


async def test_a_session_changing_under_the_preview_adds_no_overlay(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        preview = picker.query_one(SessionPreview)
        await wait_for(pilot, lambda: not preview.reading, "the first preview")
        body = preview.query_one("#preview-body")
        talk = [line for line in plain(body, 80).splitlines() if line.strip()][-3:]
        assert talk and "reading" not in " ".join(talk)
        summary = preview.summary
        for n in range(50):  # the catalog's summary of a file being appended to, again
            preview.show(replace(summary, message_count=summary.message_count + n))
            assert not pilot.app.query(LoadingIndicator)
            now = plain(body, 80)
            assert all(line in now for line in talk)  # what it said stays while read again
            await pilot.pause()
        await wait_for(pilot, lambda: not preview.reading, "the last read")
        assert not pilot.app.query(LoadingIndicator)


async def test_the_preview_says_which_process_holds_the_session_open(app_factory: Any) -> None:
    from pathlib import Path

    from holder import holding  # opened to append, nothing written

    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        preview = picker.query_one(SessionPreview)
        body = preview.query_one("#preview-body")
        await wait_for(pilot, lambda: not preview.reading, "the first preview")
        assert "open in" not in plain(body, 120)
        path = Path(preview.summary.path)
        with holding(path) as process:
            preview.show(replace(preview.summary, message_count=1))  # shown again
            await wait_for(pilot, lambda: not preview.reading, "the preview read again")
            assert f"open in  pi (pid {process.pid})" in plain(body, 120)


async def test_a_session_changing_under_the_preview_leaves_the_footer_be(
    app_factory: Any,
) -> None:
    """The footer is rebuilt when Alt+M comes or goes, not on every read of the preview."""
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        preview = picker.query_one(SessionPreview)
        await wait_for(pilot, lambda: not preview.reading, "the first preview")
        await pilot.pause()
        keys = list(picker.query("FooterKey"))
        summary = preview.summary
        for n in range(5):
            preview.show(replace(summary, message_count=summary.message_count + n + 1))
            await wait_for(pilot, lambda: not preview.reading, "the preview read again")
            await pilot.pause()
        assert keys and list(picker.query("FooterKey")) == keys
