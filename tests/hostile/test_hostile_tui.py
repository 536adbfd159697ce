"""The TUI on every hostile file: the session screen (or a clear notification for files that
are not sessions) appears within seconds, every key used to browse works, no worker fails, the
screen never carries a control character from the file, and the file is left byte for byte.

Also `pitui list` over a sessions root holding the whole corpus."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from corpus import EVIL_TEXT, NOT_SESSIONS, hostile_files, write_corpus
from textual.worker import Worker, WorkerState

from pitui.core.rows.rows import FILTERS
from pitui.ui.app import PituiApp, make_app
from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.context_pane import ContextPane
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.message_pane import MessagePane

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_helpers import settle, toasts
from waiting import wait_for

REPO = Path(__file__).resolve().parents[2]
SIZE = (160, 40)
NOW = datetime(2025, 12, 8, 12, 0, tzinfo=UTC)
OPEN_SECONDS = 10  # the screen (or the notification) appears within this
VISIT = 3  # rows visited one by one from each end (all of them in small files)


def unsafe_characters(text: str) -> list[str]:
    """C0 (but newline and tab), DEL and C1 controls."""
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def screen_text(app: PituiApp) -> str:
    """Every character of the composed screen, as the terminal would be sent it (minus the
    cursor moves and styles the driver adds)."""
    strips = app.screen._compositor.render_strips()
    lines = []
    for strip in strips:
        assert not any(segment.control for segment in strip), "a control segment on screen"
        lines.append("".join(segment.text for segment in strip))
    return "\n".join(lines)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    monkeypatch.delenv("PITUI_PI_COMMAND", raising=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_corpus(tmp_path_factory.mktemp("hostile-tui"))


@pytest.fixture
def worker_errors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, BaseException]]]:
    """Every worker that failed (most workers do not exit the app on error: a failure would
    otherwise go unseen)."""
    failed: list[tuple[str, BaseException]] = []
    real_run = Worker._run

    async def run(self: Worker[Any], app: Any) -> None:
        await real_run(self, app)
        if self.state == WorkerState.ERROR and self.error is not None:
            failed.append((self.group, self.error))

    monkeypatch.setattr(Worker, "_run", run)
    yield failed


def build(path: Path, tmp_path: Path) -> PituiApp:
    return make_app(
        session_file=path,
        watch=False,
        cache_dir=tmp_path / "cache",
        now=NOW,
        home="/home/demo",
        cwd="/home/demo",
    )


async def visit(pilot: Any, screen: SessionScreen, tree: EntryTree) -> None:
    """Highlight the row (message pane shows it), let the context build, read the entry."""
    pane = screen.query_one(MessagePane)
    await pilot.pause(0.1)  # the context waits for the highlight to rest
    await settle(pilot, rounds=2)
    assert pane.entry is tree.highlighted
    assert not unsafe_characters(screen_text(pilot.app))
    if tree.highlighted is None:  # a filter that matches no entry: nothing stale shown
        assert not screen.query_one(ContextPane).rows
        return
    await pilot.press("enter")  # opens the entry in the message pane (focus)
    assert screen.focused is pane
    tree.focus()


async def read_large_bodies(pilot: Any, screen: SessionScreen, tree: EntryTree) -> None:
    """The rest of a large body renders, safely. Done once, after browsing: a rendered
    8 MB body makes every later layout of the screen slow, which would only slow the test."""
    pane = screen.query_one(MessagePane)
    await pilot.press("home")
    for _ in range(min(len(tree.rows), VISIT)):
        await settle(pilot, rounds=2)
        await pilot.press("enter")
        if pane.has_more:
            await pilot.press("a")
            await settle(pilot, rounds=2)
            assert not pane.has_more
            assert not unsafe_characters(screen_text(pilot.app))
        tree.focus()
        await pilot.press("down")


async def browse(pilot: Any, screen: SessionScreen) -> None:
    tree = screen.query_one(EntryTree)
    count = len(tree.rows)
    if not count:  # nothing to show (header only, or every line unreadable)
        await pilot.press("home", "end", "down", "up", "enter", "ctrl+o")
        await settle(pilot)
        assert screen.query_one(MessagePane).entry is None
        return
    await pilot.press("home")
    assert tree.cursor_line == 0
    await visit(pilot, screen, tree)
    for _ in range(min(VISIT, count - 1)):
        await pilot.press("down")
        await visit(pilot, screen, tree)
    await pilot.press("end")
    assert tree.cursor_line == count - 1
    await visit(pilot, screen, tree)
    for _ in range(min(VISIT, count - 1)):
        await pilot.press("up")
        await visit(pilot, screen, tree)
    await pilot.press("pagedown", "pageup", "end")
    await settle(pilot)
    seen = [tree.filter]
    for _ in FILTERS:
        await pilot.press("ctrl+o")
        await settle(pilot)
        seen.append(tree.filter)
        await pilot.press("home", "end", "down")
        await visit(pilot, screen, tree)
    assert seen == [*FILTERS, FILTERS[0]]
    await read_large_bodies(pilot, screen, tree)


async def still_responds(pilot: Any, screen: SessionScreen) -> None:
    await pilot.press("f1")
    await pilot.pause()
    assert pilot.app.screen is not screen  # the help screen opened
    await pilot.press("escape")
    await pilot.pause()
    assert pilot.app.screen is screen


SLOW = {"long-chain.jsonl", "cycle.jsonl", "huge-line.jsonl"}


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(hostile_files())],
)
async def test_tui_on_hostile_file(
    corpus: dict[str, Path],
    name: str,
    tmp_path: Path,
    worker_errors: list[tuple[str, BaseException]],
) -> None:
    path = corpus[name]
    before = path.read_bytes()
    app = build(path, tmp_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        started = time.monotonic()
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        if name in NOT_SESSIONS:
            await wait_for(pilot, lambda: screen.gone is not None, timeout=OPEN_SECONDS)
            await wait_for(pilot, lambda: bool(toasts(app)), timeout=OPEN_SECONDS)
            await settle(pilot)  # any other notice would come from a worker, now ended
            messages = toasts(app)
            assert len(messages) == 1, "one notification says why the file was not opened"
            assert not any("Traceback" in m for m in messages)
            assert "cannot open this session" in screen_text(app)
            assert [group for group, _ in worker_errors] == ["load"]
            await still_responds(pilot, screen)
        else:
            await wait_for(pilot, lambda: screen.live is not None, timeout=OPEN_SECONDS)
            assert time.monotonic() - started < OPEN_SECONDS
            await settle(pilot)
            await browse(pilot, screen)
            await still_responds(pilot, screen)
            assert not worker_errors, worker_errors
        assert not unsafe_characters(screen_text(app))
        assert app.is_running
        await pilot.press("escape")  # standalone: Escape quits
        await pilot.pause()
    assert app.return_value is None
    assert path.read_bytes() == before


async def test_evil_text_is_inert_on_screen(
    corpus: dict[str, Path], tmp_path: Path, worker_errors: list[Any]
) -> None:
    """ESC / BEL / NUL / CSI (C1) from the file reach the screen as visible symbols, and Rich
    markup in content shows literally (it is never interpreted)."""
    app = build(corpus["evil-text.jsonl"], tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.live is not None, timeout=OPEN_SECONDS)
        await settle(pilot)
        tree = screen.query_one(EntryTree)
        pane = screen.query_one(MessagePane)
        shown: list[str] = []
        for index, row in enumerate(tree.rows):
            tree.move_to(index)
            await pilot.pause(0.1)
            await settle(pilot)
            assert pane.entry is row.entry
            text = screen_text(app)
            assert not unsafe_characters(text), (index, [hex(ord(c)) for c in text if ord(c) < 32])
            shown.append(text)
        message = next(i for i, r in enumerate(tree.rows) if r.entry.id == "a")
        tree.move_to(message)
        await pilot.pause(0.1)
        await settle(pilot)
        await wait_for(pilot, lambda: bool(screen.query_one(ContextPane).rows))
        everything = "\n".join([*shown, screen_text(app)])
        assert "[bold red]markup[/]" in everything  # literal, not bold red "markup"
        assert "\u241b" in everything  # ESC shown as the control picture
        svg = app.export_screenshot()
        assert not unsafe_characters(svg.replace("\n", ""))
        assert "[bold&#160;red]markup[/]" in svg or "[bold red]markup[/]" in svg
        assert not worker_errors
    assert "\x1b" in EVIL_TEXT  # the corpus really holds the escapes checked for


def test_list_over_the_corpus(tmp_path: Path) -> None:
    """`pitui list --all` over a sessions root holding every hostile file (with
    PI_CODING_AGENT_DIR and with --session-dir): finishes, exits 0, lists the sessions, says
    how many files were skipped as not sessions, and no control character gets through."""
    agent = tmp_path / "agent"
    folder = agent / "sessions" / "--hostile--"
    paths = write_corpus(folder)
    before = {name: p.read_bytes() for name, p in paths.items()}
    env = {
        **os.environ,
        "PI_CODING_AGENT_DIR": str(agent),
        "PITUI_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(REPO),
    }
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    runs = [
        ["list", "--all"],
        ["list", "--all", "--json"],
        ["list", "--all", "--session-dir", str(folder)],
        ["list", "--all", "--no-cache"],
        ["list", "--all"],  # warm index
    ]
    # Pi's listAll() skips null-content.jsonl too (its summary fails on `content: null`)
    skipped = NOT_SESSIONS | {"null-content.jsonl"}
    sessions = len(paths) - len(skipped)
    for args in runs:
        started = time.monotonic()
        result = subprocess.run(
            [sys.executable, "-m", "pitui", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            cwd=tmp_path,
        )
        assert time.monotonic() - started < 60
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert not unsafe_characters(result.stdout + result.stderr), args
        if "--json" in args:
            import json

            assert len(json.loads(result.stdout)) == sessions
        else:
            assert len(result.stdout.splitlines()) == 1 + sessions
        assert f"skipped {len(skipped)} .jsonl files that are not sessions" in result.stderr, (
            args,
            result.stderr,
        )
    for name, path in paths.items():
        assert path.read_bytes() == before[name], name
