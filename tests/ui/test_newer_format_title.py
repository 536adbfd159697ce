"""A session in a newer format says so in the session screen's title."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ui_helpers import plain, settle
from waiting import wait_for

from pitui.ui.screens.session import SessionScreen


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
