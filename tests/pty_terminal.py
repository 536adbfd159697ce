"""The real `pitui` process on a pseudo-terminal, everything it writes kept and drawn on a
terminal model (pyte): for tests of what reaches, and what comes from, a real terminal."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pyte
from waiting import condition_text, wait_until

REPO = Path(__file__).resolve().parents[1]


class Pty:
    """`python -m pitui ARGS` (default `--all`) on a pseudo-terminal of `size` (columns, lines);
    everything it writes kept, and drawn on `screen` (pyte)."""

    def __init__(
        self,
        env: dict[str, str],
        args: Sequence[str] = ("--all",),
        size: tuple[int, int] = (100, 30),
    ) -> None:
        columns, lines = size
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.mode_before = termios.tcgetattr(self.slave)
        self.out = bytearray()
        self.screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self.closed = False
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pitui", *args],
            stdin=self.slave, stdout=self.slave, stderr=self.slave,
            env=env, cwd=REPO, start_new_session=True,
        )  # fmt: skip
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.out += chunk
                self._stream.feed(chunk)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_for(
        self,
        condition: Callable[[], bool],
        seconds: float = 30.0,
        shown: Callable[[], str] | None = None,
        what: str = "",
    ) -> None:
        """Wait until `condition()` holds while pitui runs; failing, say what it showed."""

        def reached() -> bool:
            assert self.process.poll() is None, self.text()[-2000:]
            return condition()

        seen = shown or (lambda: repr(self.text()[-300:]))
        wait_until(reached, what or condition_text(condition), seconds, seen)

    def quit(self) -> str:
        self.send(b"\x11")  # Ctrl+Q
        assert self.process.wait(timeout=30) == 0
        self.mode_after = termios.tcgetattr(self.slave)
        time.sleep(0.1)
        self.close()
        return self.text()

    def close(self) -> None:
        """End the program if it still runs (a failed test), then the terminal (once)."""
        if self.closed:
            return
        self.closed = True
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        for fd in (self.slave, self.master):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._reader.join(timeout=5)

    def hang_up(self) -> None:
        """Close the terminal's side, as a terminal window closing does."""
        os.close(self.master)
        self.master = -1

    def text(self) -> str:
        return self.out.decode("utf-8", "replace")

    def lines(self) -> list[str]:
        """The screen as the terminal shows it now, a string a line."""
        with self._lock:
            return list(self.screen.display)

    def screen_text(self) -> str:
        return "\n".join(self.lines())

    def shows(self, text: str) -> bool:
        return any(text in line for line in self.lines())

    def wait_to_show(self, text: str, seconds: float = 30.0) -> None:
        self.wait_for(lambda: self.shows(text), seconds, self.screen_text, f"{text!r} on screen")

    def type(self, text: str, every: float = 0.0) -> None:
        """Type `text`: all at once, or a key every `every` seconds."""
        if not every:
            self.send(text.encode())
            return
        for character in text:
            self.send(character.encode())
            time.sleep(every)


def pitui_env(agent: Path, tmp_path: Path) -> dict[str, str]:
    """The environment of a pitui on `agent` (Pi's agent folder), its own folders in `tmp_path`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PYTEST"))}
    env.pop("COLUMNS", None), env.pop("LINES", None)  # the terminal's own size, not a runner's
    env.update(TERM="xterm-256color", PYTHONPATH=str(REPO), LANG="C.UTF-8",
               PI_CODING_AGENT_DIR=str(agent), PITUI_CACHE_DIR=str(tmp_path / "cache"),
               PITUI_DATA_DIR=str(tmp_path / "data"),
               PITUI_CONFIG_DIR=str(tmp_path / "config"))  # fmt: skip
    return env


@contextlib.contextmanager
def ended(terminal: Pty) -> Iterator[Pty]:
    try:
        yield terminal
    finally:
        terminal.close()
