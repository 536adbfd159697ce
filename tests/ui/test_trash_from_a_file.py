"""`pitui FILE`, Delete, Enter: the session goes to the trash and pitui quits, there being no
picker to go back to. It quit without a word; now the terminal says where the session went
and how to get it back."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pty_terminal import Pty, ended, pitui_env

from pitui.demo.generate import generate_store


@pytest.mark.slow
def test_trashing_the_file_opened_says_so_after_quitting(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    generate_store(agent / "sessions", 1, 12, seed=3)
    [session] = (agent / "sessions").rglob("*.jsonl")
    os.utime(session, (time.time() - 3600,) * 2)  # nobody is writing it
    env = pitui_env(agent, tmp_path)
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg-data")  # the trash, the test's own
    with ended(Pty(env, args=(str(session),), size=(100, 30))) as terminal:
        terminal.wait_for(lambda: terminal.shows("entries"))
        terminal.send(b"\x1b[3~")  # Delete
        terminal.wait_to_show("Move this session to the trash?")
        terminal.send(b"\r")
        assert terminal.process.wait(timeout=30) == 0
        said = "".join(terminal.text().split())  # wrapped at the terminal's width
    assert not session.exists()
    expected = f"Moved {session} to the trash; `pitui restore {session}` brings it back"
    assert "".join(expected.split()) in said
