"""Quitting at once: a key that opens a screen followed by Ctrl+Q in the same moment (the
screen still being built when the app closes) ends pitui cleanly, never with an error."""

from __future__ import annotations

from typing import Any

import pytest
from ui_helpers import open_from_picker, started

PICKER_ACTIONS = ["open", "stats", "trash_view", "rename", "trash", "export", "fork", "tags"]
SESSION_ACTIONS = ["sizes", "label", "rename", "export", "context_edit", "fork_entry", "trash"]


@pytest.mark.parametrize("action", PICKER_ACTIONS)
async def test_quit_while_a_screen_opened_from_the_picker_is_built(
    app_factory: Any, action: str
) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await started(pilot)
        getattr(picker, f"action_{action}")()
        app.exit()
    assert app.return_code == 0


@pytest.mark.parametrize("action", SESSION_ACTIONS)
async def test_quit_while_a_screen_opened_from_a_session_is_built(
    app_factory: Any, action: str
) -> None:
    app = app_factory()
    async with app.run_test(size=(120, 40)) as pilot:
        session = await open_from_picker(pilot, "zsh")
        getattr(session, f"action_{action}")()
        app.exit()
    assert app.return_code == 0


async def test_quit_while_help_is_built(app_factory: Any) -> None:
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        app.action_help()
        app.exit()
    assert app.return_code == 0
