"""sys.stderr on a pseudo-terminal, for the tests of what commands show only there."""

from __future__ import annotations

import contextlib
import os
import pty
import sys
from collections.abc import Iterator

import pytest


@contextlib.contextmanager
def terminal_stderr(monkeypatch: pytest.MonkeyPatch) -> Iterator[bytearray]:
    """sys.stderr on a pseudo-terminal; what reached it, once the block ends."""
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    written = bytearray()
    with os.fdopen(slave, "w", encoding="utf-8") as tty:
        monkeypatch.setattr(sys, "stderr", tty)
        yield written
        tty.flush()
    with contextlib.suppress(BlockingIOError, OSError):
        while chunk := os.read(master, 65536):
            written += chunk
    os.close(master)
