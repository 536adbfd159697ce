"""The picker over a store holding a FIFO, a link to /dev/zero and an unreadable file: the good
sessions are listed, never a hang, and a notice names what was skipped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pitui.demo.generate import write_demo_store
from pitui.ui.app import make_app
from pitui.ui.screens.picker import PickerScreen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_helpers import toast_saying, toasts
from waiting import wait_for


async def test_the_picker_lists_the_good_sessions_and_names_the_rest(tmp_path: Path) -> None:
    root = write_demo_store(tmp_path / "agent")
    folder = next(root.iterdir())
    os.mkfifo(folder / "pipe\x1b[2J.jsonl")
    os.symlink("/dev/zero", folder / "zero.jsonl")
    expected = len(list(root.rglob("*.jsonl"))) - 2
    app = make_app(sessions_root=root, all_scope=True, watch=False, cache_dir=tmp_path / "c")
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned and len(picker.rows) == expected, 20)
        await toast_saying(pilot, "not a regular file, skipped")
        skipped = [n for n in toasts(app) if n.startswith("not a regular file, skipped")]
        assert len(skipped) == 1 and "zero.jsonl" in skipped[0] and "pipe" in skipped[0]
        assert "\x1b" not in skipped[0]  # the name is shown, its escape made visible
