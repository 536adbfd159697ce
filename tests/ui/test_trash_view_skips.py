"""The trash view (Alt+Z) lists the trashed sessions whose `.trashinfo` is a small regular
file, and says, in a toast, which entry it skipped and why (a FIFO there hung the view, a
link to /dev/zero was read without end: `tests/hostile/test_small_special_files.py`)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from test_picker import started
from ui_helpers import toast_saying
from waiting import wait_for

from pitui.core.changes.restore import INFO_LIMIT
from pitui.ui.screens.trash_view import TrashViewScreen

SIZE = (160, 48)


async def test_the_trash_view_skips_an_entry_too_large_and_says_so(
    app_factory: Any, demo_root: Path, home_trash: Path, tmp_path: Path
) -> None:
    session = sorted(demo_root.rglob("*.jsonl"))[0]
    (home_trash / "info").mkdir(parents=True)
    (home_trash / "files").mkdir()
    for name in ("odd", "kept"):
        shutil.copy(session, home_trash / "files" / f"{name}.jsonl")
    odd = home_trash / "info" / "odd.jsonl.trashinfo"
    odd.write_text(f"[Trash Info]\nPath={tmp_path}/odd.jsonl\nX-Pad={'a' * INFO_LIMIT}\n")
    kept = tmp_path / "was" / "kept.jsonl"
    (home_trash / "info" / "kept.jsonl.trashinfo").write_text(
        f"[Trash Info]\nPath={kept}\nDeletionDate=2026-01-02T03:04:05\n"
    )
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot)
        await pilot.press("alt+z")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrashViewScreen))
        view = pilot.app.screen
        assert isinstance(view, TrashViewScreen)
        await wait_for(pilot, lambda: len(view.items) == 1)
        assert [item.original for item in view.items] == [kept]
        said = await toast_saying(pilot, "odd.jsonl.trashinfo")
        assert f"larger than {INFO_LIMIT:,} bytes" in said
