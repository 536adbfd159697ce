"""A watchfiles whose native backend fails (as when inotify limits are hit), for tests."""

from __future__ import annotations

import errno
from typing import Any

import pytest
import watchfiles


def fail_native_watching(
    monkeypatch: pytest.MonkeyPatch, error: int = errno.ENOSPC
) -> list[bool | None]:
    """Make `watchfiles.watch` raise unless polling is forced; returns the modes it was
    called with (None or False: native, True: polling), in order."""
    real_watch = watchfiles.watch
    modes: list[bool | None] = []

    def watch(*paths: Any, force_polling: bool | None = None, **kwargs: Any) -> Any:
        modes.append(force_polling)
        if not force_polling:
            raise OSError(error, "OS file watch limit reached")
        return real_watch(*paths, force_polling=force_polling, **kwargs)

    monkeypatch.setattr(watchfiles, "watch", watch)
    return modes
