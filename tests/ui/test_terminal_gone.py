"""pitui ends when its terminal goes away, even without the hang-up signal (a program that is
not in the terminal's session gets none): it never reads end-of-file for ever."""

from __future__ import annotations

from pathlib import Path

from pty_terminal import Pty, ended, pitui_env
from waiting import wait_until

from pitui.demo.generate import write_demo_store


def test_pitui_ends_when_its_terminal_is_closed(tmp_path: Path) -> None:
    write_demo_store(tmp_path / "agent")
    with ended(Pty(pitui_env(tmp_path / "agent", tmp_path))) as terminal:
        terminal.wait_for(lambda: "shown" in terminal.text())
        terminal.hang_up()
        wait_until(lambda: terminal.process.poll() is not None, "pitui to end without its terminal")
