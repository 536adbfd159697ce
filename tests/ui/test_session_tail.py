"""A large session shows the end of its active branch, read from the end of the file, while
the whole tree loads; the tree replaces it once built."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import plain, settle
from waiting import wait_for

from pitui.core.live.hub import SessionHub
from pitui.core.rows.rows import TreeRows
from pitui.core.session.session import Session
from pitui.demo.generate import generate_large_session
from pitui.ui.screens import session_tail
from pitui.ui.screens.session import SessionScreen


async def test_the_branch_end_shows_before_the_tree(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = generate_large_session(tmp_path / "big.jsonl", n_entries=3_000)
    active = [r for r in TreeRows(Session(path).tree, "default").rows if r.on_active_path]
    monkeypatch.setattr(session_tail, "PEEK_MIN_BYTES", 0)
    release = threading.Event()
    real_open = SessionHub.open

    def slow_open(self: SessionHub, *args: Any, **kwargs: Any) -> Any:
        release.wait(10)  # the whole load waits until the test has seen the peek
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(SessionHub, "open", slow_open)
    async with app_factory(session_file=path).run_test(size=(120, 30)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.has_class("-peeking"))
        shown = plain(screen.query_one("#session-tail-text"), width=400)
        assert "read from the end of the file" in shown
        lines = [line for line in shown.splitlines() if line.startswith("• ")]
        assert lines[-1] == "• " + active[-1].text  # the leaf, worded as its tree row
        assert lines[-3:] == ["• " + row.text for row in active[-3:]]
        assert screen.live is None
        release.set()
        await wait_for(pilot, lambda: screen.live is not None, timeout=20)
        await settle(pilot)
        assert not screen.has_class("-peeking")
        assert not screen.query_one("#session-tail").display


async def test_a_small_session_is_not_peeked(app_factory: Any, demo_root: Path) -> None:
    path = sorted(demo_root.rglob("*.jsonl"))[0]
    async with app_factory(session_file=path).run_test(size=(120, 30)) as pilot:
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.live is not None)
        await settle(pilot)
        assert not screen.has_class("-peeking")
        assert plain(screen.query_one("#session-tail-text")).strip() == ""
