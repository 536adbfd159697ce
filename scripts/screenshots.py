#!/usr/bin/env python3
"""Write SVG screenshots of pitui's main screens, from the demo data, into `screenshots/`.

    .venv/bin/python scripts/screenshots.py [OUTPUT_DIR]

The clock is frozen and the demo store is deterministic, so reruns give the same pictures.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.widgets import Input  # noqa: E402
from textual.worker import WorkerCancelled, WorkerFailed  # noqa: E402

from pitui.demo.generate import write_demo_store  # noqa: E402
from pitui.ui.app import make_app  # noqa: E402

NOW = datetime(2025, 12, 8, 12, 0, tzinfo=UTC)
SIZE = (160, 42)
Steps = Callable[[Any], Awaitable[None]]


async def settle(pilot: Any) -> None:
    for _ in range(6):
        with contextlib.suppress(WorkerCancelled, WorkerFailed):  # replaced workers
            await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.05)
    for screen in pilot.app.screen_stack:
        for widget in screen.query(Input):
            widget.cursor_blink = False


async def press(pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause(0.2)
    await settle(pilot)


async def open_session(pilot: Any, query: str) -> None:
    """Open the first result, and show its whole tree (Esc clears the marks it opens with)."""
    await press(pilot, *query)
    await press(pilot, "enter")
    await pilot.pause(0.3)
    await settle(pilot)
    tree = pilot.app.screen.query_one("#entry-tree")
    if tree.typed or tree.search_text:
        await press(pilot, "escape")


async def picker(pilot: Any) -> None:
    pass


async def picker_search(pilot: Any) -> None:
    await press(pilot, *"checkout")


async def session(pilot: Any) -> None:
    await open_session(pilot, "product search")


async def session_context(pilot: Any) -> None:
    await open_session(pilot, "compactions")
    await press(pilot, "end", "tab", "tab")  # the last entry's context, with the focus


async def help_screen(pilot: Any) -> None:
    await open_session(pilot, "rounding")
    await press(pilot, "f1")


async def trash_confirm(pilot: Any) -> None:
    await press(pilot, "ctrl+d")


async def label_modal(pilot: Any) -> None:
    await open_session(pilot, "rounding")
    await press(pilot, "L")


async def light_theme(pilot: Any) -> None:
    await open_session(pilot, "rounding")
    await press(pilot, "f2")  # the theme (Ctrl+T is Pi's no-tools filter)


SHOTS: dict[str, Steps] = {
    "picker": picker,
    "picker-search": picker_search,
    "session": session,
    "session-context": session_context,
    "help": help_screen,
    "trash-confirm": trash_confirm,
    "label": label_modal,
    "session-light": light_theme,
}


async def shoot(name: str, steps: Steps, sessions: Path, cache: Path, out: Path) -> Path:
    # each shot from pitui's default settings, never the user's (a theme chosen with F2)
    os.environ["PITUI_CONFIG_DIR"] = tempfile.mkdtemp(prefix="config-", dir=cache.parent)
    app = make_app(
        sessions_root=sessions,
        all_scope=True,
        watch=False,
        cache_dir=cache,
        now=NOW,
        home="/home/demo",
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.3)
        await settle(pilot)
        await steps(pilot)
        app.clear_notifications()
        await settle(pilot)
        svg = app.export_screenshot(title=f"pitui - {name}")
    target = out / f"{name}.svg"
    target.write_text(svg, encoding="utf-8")
    return target


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pitui-shots-") as tmp:
        sessions = write_demo_store(Path(tmp) / "agent")
        then = time.time() - 3600
        for file in sessions.rglob("*.jsonl"):
            os.utime(file, (then, then))
        for name, steps in SHOTS.items():
            print(await shoot(name, steps, sessions, Path(tmp) / "cache", out))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"))
