"""The palette's Screenshot (Ctrl+K): saved where the user finds it, and the notification
says where. Textual's own saved to the Downloads folder only, and without one said "Failed
to save screenshot"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_helpers import started, toast_saying

from pitui.core.errors import PituiError
from pitui.ui.screenshot import save_screenshot, screenshot_folders

SIZE = (120, 36)


@pytest.fixture
def no_downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user without a Downloads folder, pitui started in `here`; returns `here`."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    (tmp_path / "home").mkdir()
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    return here


async def test_the_palettes_screenshot_is_saved_and_the_notification_says_where(
    app_factory: Any, no_downloads: Path
) -> None:
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot)
        await pilot.press("ctrl+k")
        await pilot.press(*"Screenshot")
        await pilot.pause(0.3)  # the palette's search answers
        await pilot.press("enter")
        note = await toast_saying(pilot, "Saved to")
        [saved] = list(no_downloads.glob("*.svg"))
        assert str(saved) in note.replace("\n", "")
        assert saved.read_text().startswith("<svg")


def test_the_screenshot_goes_to_the_next_folder_when_one_cannot_take_it(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # a folder cannot be made here
    folder = tmp_path / "data" / "screenshots"
    saved = save_screenshot("<svg/>", "shot.svg", [blocked / "sub", folder])
    assert saved == folder / "shot.svg" and saved.read_text() == "<svg/>"
    with pytest.raises(PituiError, match="cannot save the screenshot"):
        save_screenshot("<svg/>", "shot.svg", [blocked / "sub"])


def test_the_folders_tried(no_downloads: Path, tmp_path: Path) -> None:
    assert screenshot_folders()[0] == no_downloads  # no Downloads folder: here first
    (tmp_path / "home" / "Downloads").mkdir()
    assert screenshot_folders()[:2] == [tmp_path / "home" / "Downloads", no_downloads]
    assert screenshot_folders("~/x") == [tmp_path / "home" / "x"]
