"""Pausing Python's cyclic garbage collector while building many acyclic objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Loading a session allocates an object per entry, and a context a dict per message;
    none of them form cycles, yet the cyclic collector would walk them all again and again
    while they are being created.

    They live as long as the session: on the way out they join the oldest generation
    (`freeze()` then `unfreeze()` moves every tracked object there), so that the next
    young collection does not walk tens of thousands of them at once either."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()
