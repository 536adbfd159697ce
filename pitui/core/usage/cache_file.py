"""Writing one of pitui's JSON caches: to a temporary file renamed into place, so a reader
sees the old cache or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import orjson


def write_cache(path: Path, value: object, what: str) -> str | None:
    """Write `value` as JSON to `path`; a one-line notice if it could not be kept (a cache
    that cannot be kept costs only time), else None."""
    import tempfile  # only when a cache changed: a warm `pitui stats` never writes

    body = orjson.dumps(value)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.stem}-", dir=path.parent)
    except OSError as error:
        return f"{what} not kept ({error.strerror or error})"
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
        os.replace(temp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        return f"{what} not kept ({error.strerror or error})"
    return None
