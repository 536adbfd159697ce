"""Helpers for the UI tests (pilot waits, a stub `pi`)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from waiting import wait_for


async def settle(pilot: Pilot[Any], rounds: int = 4) -> None:
    """Wait until workers are done and the messages they posted are handled.

    Every worker running now is waited for, whatever its end: a worker replaced by a newer
    exclusive one ends cancelled, and `Worker.wait` then raises `WorkerCancelled` (a failed one
    `WorkerFailed`, reported by the app). `workers.wait_for_complete()` gathers without
    `return_exceptions`: it raised the first of these (failing the test) and, once that was
    suppressed, returned with the other workers still running."""
    for _ in range(rounds):
        workers = list(pilot.app.workers)
        if workers:
            await asyncio.gather(*(worker.wait() for worker in workers), return_exceptions=True)
        await pilot.pause()


def session_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.jsonl"))


def stub_pi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `pi` on PATH that records its argv and cwd into a file; returns that file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    record = tmp_path / "pi-record.txt"
    script = bin_dir / "pi"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$PWD" "$@" > "{record}"\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return record


def plain(widget: Any, width: int = 100) -> str:
    """The text a Static-like widget shows (its content rendered without styles)."""
    import io

    from rich.console import Console

    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(widget.content if hasattr(widget, "content") else widget.render())
    return console.export_text()


async def started(pilot: Pilot[Any], timeout: float = 5) -> Any:
    """The picker, once its start-up scan is done and what it started has settled."""
    from pitui.ui.screens.picker import PickerScreen

    picker = pilot.app.screen
    assert isinstance(picker, PickerScreen)
    await wait_for(pilot, lambda: picker.scanned, "the picker's first scan", timeout)
    await settle(pilot)
    return picker


async def loaded(pilot: Pilot[Any]) -> Any:
    """The session screen the app opened on, once its session is read and settled."""
    from pitui.ui.screens.session import SessionScreen

    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    await wait_for(pilot, lambda: screen.live is not None, "the session to be read")
    await settle(pilot)
    return screen


def toasts(app: Any) -> list[str]:
    """The notifications the screen shows now, as their toasts read (a title, if any, on a
    line above the message). A test app shows toasts when run with
    `run_test(notifications=True)`."""
    return [toast.render().plain for toast in app.screen.query("Toast")]


async def toast_saying(pilot: Pilot[Any], text: str, timeout: float = 5) -> str:
    """Wait until a toast on the screen says `text`; return all it says."""
    await wait_for(
        pilot,
        lambda: any(text in shown for shown in toasts(pilot.app)),
        f"a toast saying {text!r}",
        timeout,
        seen=lambda: repr(toasts(pilot.app)),
    )
    return next(shown for shown in toasts(pilot.app) if text in shown)


def screen_lines(app: Any) -> list[str]:
    """The text of the screen as drawn, a string per terminal line."""
    return ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]


async def open_from_picker(pilot: Pilot[Any], query: str, *, keep_search: bool = False) -> Any:
    """Search the picker for `query`, Enter on the first result, wait until the session is
    loaded. The tree opens on the first entry matching the query's words, its matches marked;
    unless `keep_search`, Esc clears the marks, for a test of the whole tree."""
    from pitui.ui.screens.picker import PickerScreen
    from pitui.ui.screens.session import SessionScreen
    from pitui.ui.widgets.entry_tree import EntryTree

    picker = pilot.app.screen
    assert isinstance(picker, PickerScreen)
    await wait_for(pilot, lambda: picker.scanned)
    await settle(pilot)
    await pilot.press(*query)
    await wait_for(pilot, lambda: not picker.search_pending)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.live is not None)
    await settle(pilot)
    tree = screen.query_one(EntryTree)
    if (tree.typed or tree.search_text) and not keep_search:
        await pilot.press("escape")
        await settle(pilot)
    return screen
