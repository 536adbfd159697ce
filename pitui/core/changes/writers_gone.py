"""Waiting until no other process has a file open for writing: after a file is renamed away
from its path, only a writer that opened it before can still append to it (a pi between the
open and the append of `appendFileSync`, a moment), and once none holds it, what can be read
of it is all it will ever hold."""

from __future__ import annotations

import os
import time

from pitui.core.live import open_by

WAIT_SECONDS = 2.0  # how long a writer still holding the file is waited for
POLL_SECONDS = 0.01
BLIND_SECONDS = 0.1  # where /proc cannot tell: a moment for an append under way to end


def wait_for_writers(fd: int) -> open_by.Holder | None:
    """Wait until no other process has the file of `fd` open for writing; returns one that
    still does after `WAIT_SECONDS`, else None."""
    info = os.fstat(fd)
    key = (info.st_dev, info.st_ino)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = open_by.snapshot([key])
        if found is None:
            time.sleep(BLIND_SECONDS)
            return None
        writers = [h for h in found.holders(key, exclude=os.getpid()) if h.writing]
        if not writers:
            return None
        if time.monotonic() > deadline:
            return writers[0]
        time.sleep(POLL_SECONDS)
