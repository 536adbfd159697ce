"""The picker's marker on sessions that hold credentials, found in the background and kept
in the secrets cache."""

from __future__ import annotations

import os
import random
import string
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from entry_builders import header, msg
from ui_helpers import settle
from waiting import wait_for

from pitui.core.catalog.scan.tool_pass import ToolPass
from pitui.core.secrets.found_cache import FILE_NAME, SecretsCache
from pitui.ui import user_activity
from pitui.ui.screens import picker_secrets
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.screens.picker_secrets import MARK, SecretRow
from pitui.ui.widgets.session_table import SessionTable

_rng = random.Random(5)
TOKEN = "ghp_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def plant(root: Path) -> Path:
    folder = next(p for p in root.iterdir() if p.is_dir())
    lines = [header("leaky-one", "/home/demo/projects/leaky"),
             msg("u1", None, text=f"Leaky session: my token is {TOKEN}", n=1)]  # fmt: skip
    path = folder / "2025-12-01T09-00-00-000Z_leaky.jsonl"
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    then = time.time() - 3600
    os.utime(path, (then, then))
    return path


async def test_marker_on_the_sessions_with_credentials(
    app_factory: Any, demo_root: Path, tmp_path: Path
) -> None:
    leaky = plant(demo_root)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: str(leaky) in picker.secret_paths)
        await settle(pilot)
        marked = [r for r in picker.rows if isinstance(r, SecretRow)]
        assert [r.summary.path for r in marked] == [str(leaky)]
        assert len(picker.rows) == 13  # the 12 demo sessions, none marked, and this one
        assert marked[0].guide().endswith(MARK)
        table = picker.query_one(SessionTable)
        line = table.render_line(1 + picker.rows.index(marked[0])).text
        assert MARK + "Leaky session" in line
    assert (tmp_path / "cache" / FILE_NAME).is_file()


async def test_a_pass_cut_short_keeps_what_it_read(
    app_factory: Any, demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pitui quit in the middle of a long first pass: the files read are not read again."""
    plant(demo_root)
    monkeypatch.setattr(picker_secrets, "BATCH", 1)
    monkeypatch.setattr(picker_secrets, "SAVE_EVERY", 0.0)
    calls = []
    original = SecretsCache.kinds_of

    def cut_short(self: SecretsCache, paths: Any, stop: Any) -> Any:
        calls.append(paths)
        if len(calls) > 3:
            raise RuntimeError("quit")  # as the thread ends with the app, mid-pass
        return original(self, paths, stop)

    monkeypatch.setattr(SecretsCache, "kinds_of", cut_short)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        await wait_for(pilot, lambda: len(calls) > 3)
        await settle(pilot)
    kept = orjson.loads((tmp_path / "cache" / FILE_NAME).read_bytes())["files"]
    assert len(kept) == 3 and set(kept) == {p for batch in calls[:3] for p in batch}


async def test_the_pass_waits_while_the_user_types(
    app_factory: Any, demo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    leaky = plant(demo_root)
    monkeypatch.setattr(user_activity, "QUIET_SECONDS", 600.0)  # no quiet moment: it waits
    app = app_factory()
    app.activity.noted()  # a key typed at launch
    async with app.run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        for key in ["x", "backspace"] * 5:
            await pilot.press(key)
            await pilot.pause(0.1)
        await pilot.pause(0.5)  # (not `settle`: it would wait for the waiting pass)
        assert str(leaky) not in picker.secret_paths
        monkeypatch.setattr(user_activity, "QUIET_SECONDS", 0.2)  # the user stops typing
        await wait_for(pilot, lambda: str(leaky) in picker.secret_paths)


async def test_the_pass_waits_for_the_search_index(
    app_factory: Any, demo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a first launch the search index is made first: both read every session."""
    leaky = plant(demo_root)
    held = threading.Event()
    original = ToolPass._run

    def held_run(self: ToolPass, progress: Any) -> None:
        held.wait(30)
        original(self, progress)

    monkeypatch.setattr(ToolPass, "_run", held_run)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned)
        await pilot.pause(1.0)  # (not `settle`: it would wait for the waiting pass)
        assert str(leaky) not in picker.secret_paths
        held.set()  # the search index is made
        await wait_for(pilot, lambda: str(leaky) in picker.secret_paths)


async def test_a_long_pass_says_so_on_the_status_line_until_it_ends(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first pass at 10,000 sessions read for 35 s after the status line went quiet."""
    monkeypatch.setattr(picker_secrets, "SAY_AFTER", 0.0)
    monkeypatch.setattr(picker_secrets, "BATCH", 3)
    said: list[str] = []
    real = PickerScreen._progress_parts

    def watched(picker: PickerScreen) -> list[str]:
        parts = real(picker)
        said.extend(part for part in parts if part.startswith("looking for credentials"))
        return parts

    monkeypatch.setattr(PickerScreen, "_progress_parts", watched)
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: bool(said), "the pass to say it runs")
        assert said[0].endswith("%")
        await wait_for(pilot, lambda: picker.credential_pass is None, "the pass to end")
        await settle(pilot)
        status = str(picker.query_one("#picker-status").render())
        assert "looking for credentials" not in status
