"""New ids as Pi makes them: an entry's 8 hex characters (`generateId`) and a session's
UUID version 7."""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Container
from typing import Any


def new_entry_id(used: Container[Any]) -> str:
    """8 lowercase hex characters not in `used` (a whole UUID after 100 collisions), as Pi."""
    for _ in range(100):
        candidate = secrets.token_hex(4)
        if candidate not in used:
            return candidate
    return str(uuid.uuid4())


def uuid7() -> str:
    """A UUID version 7 (milliseconds since the epoch, then random bits), as Pi's uuidv7."""
    ms = time.time_ns() // 1_000_000
    value = (ms & ((1 << 48) - 1)) << 80 | secrets.randbits(80)
    value = (value & ~(0xF << 76)) | (0x7 << 76)
    value = (value & ~(0x3 << 62)) | (0x2 << 62)
    return str(uuid.UUID(int=value))
