"""A session in a newer format says so in the session screen's title, and its editors say
they cannot write it before they open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ui_helpers import plain, settle, toast_saying
from waiting import wait_for

from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.entry_tree import EntryTree


def _write(path: Path, version: int) -> Path:
    lines = [
        {"type": "session", "version": version, "id": "s", "timestamp": "2025-01-01T00:00:00Z",
         "cwd": "/p"},
        {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01Z",
         "message": {"role": "user", "content": "hi", "timestamp": 1}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


async def _title(app_factory: Any, path: Path) -> str:
    async with app_factory(session_file=path).run_test(size=(160, 30)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.live is not None)
        await settle(pilot)
        return plain(screen.query_one("#session-title"), 300)


async def test_the_title_marks_a_newer_format(app_factory: Any, tmp_path: Path) -> None:
    assert "newer format: read only" in await _title(app_factory, _write(tmp_path / "4.jsonl", 4))
    assert "newer format" not in await _title(app_factory, _write(tmp_path / "3.jsonl", 3))


async def test_its_editors_say_read_only_before_they_open(app_factory: Any, tmp_path: Path) -> None:
    """Shift+L, Ctrl+R and Alt+C opened their dialogs on a session pitui never writes, and
    said so only once the user had typed and confirmed."""
    path = _write(tmp_path / "4.jsonl", 4)
    before = path.read_bytes()
    async with app_factory(session_file=path).run_test(size=(160, 30), notifications=True) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.live is not None)
        await settle(pilot)
        for key in ("L", "ctrl+r", "alt+c"):
            pilot.app.clear_notifications()
            await pilot.press(key)
            await toast_saying(pilot, "pitui reads this session, never writes it")
            assert pilot.app.screen is screen, key  # no dialog
    assert path.read_bytes() == before


async def test_a_context_edit_off_the_branch_is_refused_before_the_dialog(
    app_factory: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path / "3.jsonl", 3)
    with path.open("a") as lines:  # a second branch from the root; the file's leaf is on it
        for entry in (
            {"type": "message", "id": "b", "parentId": None, "timestamp": "2025-01-01T00:00:02Z",
             "message": {"role": "user", "content": "other", "timestamp": 2}},
        ):  # fmt: skip
            lines.write(json.dumps(entry) + "\n")
    async with app_factory(session_file=path).run_test(size=(160, 30), notifications=True) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.live is not None)
        await settle(pilot)
        screen.query_one(EntryTree).move_to_entry("a")  # not on the path to the leaf b
        await settle(pilot)
        await pilot.press("alt+c")
        await toast_saying(pilot, "is not on the active branch")
        assert pilot.app.screen is screen
