"""Dialogs wrap their text and keep the question and the buttons in view; the trash dialog
names the session (its title, then its path with an ellipsis in the middle)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Button, Label
from ui_helpers import plain, settle, wait_for

from pitui.ui.format import middle_ellipsis
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.screens.picker import PickerScreen

REASON = (
    "2026-04-12T09-00-00-000Z_e4929284-1c7d-7a33-9d3a-5be1c0ffee42.jsonl is open for "
    "writing by pid 48213 (node) and changed 2 seconds ago"
)


class DialogApp(App[None]):
    CSS_PATH = str(Path(__file__).resolve().parents[2] / "pitui.tcss")


@pytest.mark.parametrize("size", [(80, 24), (50, 16)])
async def test_long_warning_wraps_and_keeps_question_and_buttons(size: tuple[int, int]) -> None:
    app = DialogApp()
    async with app.run_test(size=size) as pilot:
        modal = ConfirmModal(
            "Rename: pi may be writing this session",
            REASON + "\n" + "more detail. " * 60,
            confirm_label="Write anyway",
            question="Write anyway?",
        )
        app.push_screen(modal)
        await pilot.pause()
        body = modal.query_one(".dialog-body", Label)
        text = plain(body, body.size.width)
        assert "pid 48213" in text.replace("\n", " ")  # nothing cut away
        screen = modal.region
        for widget in [modal.query_one(".dialog-question"), *modal.query(Button)]:
            assert widget.region.height > 0 and screen.contains_region(widget.region)


def test_middle_ellipsis_keeps_both_ends() -> None:
    path = "~/.pi/agent/sessions/--home-me-projects-x--/2026-04-12T09-00-00-000Z_e49.jsonl"
    short = middle_ellipsis(path, 40)
    assert len(short) == 40 and "…" in short
    assert short.startswith("~/.pi/agent/") and short.endswith("_e49.jsonl")
    assert middle_ellipsis("short", 40) == "short"


async def test_trash_dialog_names_the_session(app_factory: Any, tmp_path: Path) -> None:
    async with app_factory(home=str(tmp_path)).run_test(size=(80, 24)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        summary = picker.rows[0].summary
        await pilot.press("ctrl+d")
        modal = pilot.app.screen
        assert isinstance(modal, ConfirmModal)
        lines = plain(modal.query_one(".dialog-body"), 200).splitlines()
        assert lines[0] == (summary.name or summary.first_message)
        assert "…" in lines[1] and lines[1].startswith("~/")
        assert lines[1].endswith(Path(summary.path).name[-20:])
        await pilot.press("escape")
