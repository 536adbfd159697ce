"""The preview of a session being written: each change shows it again without an overlay
(Textual's loading indicator, set on every change, piled up detached indicators and memory)
and without blanking what it showed until the new read arrives."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from entry_builders import header, msg
from textual.widgets import LoadingIndicator
from ui_helpers import plain, started
from waiting import wait_for

from pitui.ui.widgets.session_preview import Exchanges, SessionPreview

ROLES = ("user", "assistant")


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
    from holder import holding  # opened to append, nothing written

    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        preview = picker.query_one(SessionPreview)
        body = preview.query_one("#preview-body")
        await wait_for(pilot, lambda: not preview.reading, "the first preview")
        assert "open in" not in plain(body, 120)
        path = Path(preview.summary.path)
        with holding(path) as process, holding(path, mode="rb", name="less"):
            preview.show(replace(preview.summary, message_count=1))  # shown again
            await wait_for(pilot, lambda: not preview.reading, "the preview read again")
            assert f"open in  pi (pid {process.pid})" in plain(body, 120)
            assert "less" not in plain(body, 120)  # a reader cannot write to it


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


def test_the_exchanges_of_a_session_being_written_are_those_read_afresh(
    tmp_path: Path,
) -> None:
    """Kept between reads, the session is read on from where the last read ended: what the
    preview shows is what a whole read shows, also once the file was truncated."""
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(header()) + "\n")
    kept = Exchanges()
    said = [msg("u0", None, text="first question"), msg("a0", "u0", "assistant", "   ")]
    said += [msg(f"m{i}", "a0" if i == 1 else f"m{i - 1}", ROLES[i % 2], f"said {i}") for i in range(1, 9)]  # fmt: skip
    said.append(msg("b1", "u0", text="a branch from the start"))  # the leaf path changes
    for entry in said:
        with path.open("a") as out:
            out.write(json.dumps(entry) + "\n")
        assert kept.of(path) == Exchanges().of(path)
    assert kept.of(path) == [("user", "first question"), ("user", "a branch from the start")]
    path.write_text(path.read_text().split('{"type": "message", "id": "m6"')[0])
    assert kept.of(path) == Exchanges().of(path) and len(kept.of(path)) == 5
