"""`python -m pitui --all` on a pseudo-terminal (100x30), everything it writes kept: for
tests of what reaches a real terminal."""

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
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


class Pty:
    """`python -m pitui --all` on a pseudo-terminal of 100x30; everything it writes kept."""

    def __init__(self, env: dict[str, str]) -> None:
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.mode_before = termios.tcgetattr(self.slave)
        self.out = bytearray()
        self.closed = False
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pitui", "--all"],
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
            self.out += chunk

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_for(self, condition: object, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while not condition():  # type: ignore[operator]
            assert self.process.poll() is None, self.text()
            assert time.monotonic() < deadline, repr(self.text()[-300:])
            time.sleep(0.05)

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


@contextlib.contextmanager
def ended(terminal: Pty) -> Iterator[Pty]:
    try:
        yield terminal
    finally:
        terminal.close()
