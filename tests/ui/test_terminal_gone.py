"""pitui ends when its terminal goes away, even without the hang-up signal (a program that is
not in the terminal's session gets none): it never reads end-of-file for ever."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pty_terminal import REPO, Pty, ended

from pitui.demo.generate import write_demo_store


def test_pitui_ends_when_its_terminal_is_closed(tmp_path: Path) -> None:
    write_demo_store(tmp_path / "agent")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PYTEST"))}
    env.update(TERM="xterm-256color", PYTHONPATH=str(REPO), LANG="C.UTF-8",
               PI_CODING_AGENT_DIR=str(tmp_path / "agent"),
               PITUI_CACHE_DIR=str(tmp_path / "cache"), PITUI_DATA_DIR=str(tmp_path / "data"),
               PITUI_CONFIG_DIR=str(tmp_path / "config"))  # fmt: skip
    with ended(Pty(env)) as terminal:
        terminal.wait_for(lambda: "shown" in terminal.text())
        terminal.hang_up()
        deadline = time.monotonic() + 20
        while terminal.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert terminal.process.poll() is not None, "still running without its terminal"
