"""Pausing Python's cyclic garbage collector while building many acyclic objects."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pausing = 0  # threads inside `collector_paused` now
_was_enabled = False  # the collector's state when the first of them came in


@contextmanager
def collector_paused() -> Iterator[None]:
    """Loading a session allocates an object per entry, and a context a dict per message;
    none of them form cycles, yet the cyclic collector would walk them all again and again
    while they are being created.

    The collector is one per process: it is paused while any thread is inside, and given
    back as it was when the last one leaves. Objects are not pushed into the oldest
    generation (`gc.freeze()`/`unfreeze()` did, every object of every thread, so full
    collections never came and the app's garbage cycles piled up: 1.5 MB/s while a
    session being written was previewed)."""
    global _pausing, _was_enabled
    with _lock:
        if _pausing == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pausing += 1
    try:
        yield
    finally:
        with _lock:
            _pausing -= 1
            if _pausing == 0 and _was_enabled:
                gc.enable()
