"""What a user who is not root meets in a folder of mode 000 or 555, for tests that run as
root (where chmod refuses nothing): the same PermissionError, from the same system calls."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

_LOOKUPS = ("stat", "lstat", "open", "listdir", "scandir", "access")
_CHANGES = ("link", "rename", "replace", "unlink", "mkdir", "rmdir", "symlink")


def deny(monkeypatch: pytest.MonkeyPatch, folder: Path, mode: int) -> None:
    """Mode 0o000: nothing in `folder` can be looked up, read or listed. Mode 0o555: nothing
    can be created, renamed or removed in it (what is there can still be read)."""
    folder = Path(os.path.abspath(folder))

    def inside(path: Any) -> bool:
        if isinstance(path, int):
            return False
        return Path(os.path.abspath(os.fsdecode(path))).parent == folder

    def refuse(path: Any) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    def wrap(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            paths = args[:2] if name in ("link", "rename", "replace", "symlink") else args[:1]
            if mode == 0o000 and name in ("listdir", "scandir") and args:
                if Path(os.path.abspath(os.fsdecode(args[0]))) == folder:
                    refuse(args[0])
            elif mode == 0o000 and any(inside(p) for p in paths):
                refuse(paths[0])
            elif mode == 0o555 and name in _CHANGES and inside(paths[-1]):
                refuse(paths[-1])
            elif mode == 0o555 and name in _CHANGES and name != "link" and inside(paths[0]):
                refuse(paths[0])
            elif mode == 0o555 and name == "open" and inside(paths[0]):
                flags = args[1] if len(args) > 1 else kwargs.get("flags", 0)
                if flags & os.O_CREAT and not os.path.lexists(paths[0]):
                    refuse(paths[0])
            return real(*args, **kwargs)

        return call

    for name in (*_LOOKUPS, *_CHANGES):
        monkeypatch.setattr(os, name, wrap(name, getattr(os, name)))
