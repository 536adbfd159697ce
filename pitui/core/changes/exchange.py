"""Swapping two file names in one step (Linux's `renameat2(RENAME_EXCHANGE)`).

A rename over a file drops whatever is there at that instant; an exchange keeps it under the
other name, so a writer can see what it displaced and put it back.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP)


@cache
def _renameat2() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    except OSError:
        return None


def exchange(first: Path, second: Path) -> bool:
    """Swap the files named `first` and `second` (both must exist) atomically. False where
    the system or the file system cannot (nothing was done); OSError on any other failure."""
    return _rename2(first, second, _RENAME_EXCHANGE)


def rename_no_replace(source: Path, target: Path) -> bool:
    """Rename `source` to `target` atomically, failing (FileExistsError) if `target` exists.
    False where the system or the file system cannot (nothing was done); OSError (EXDEV
    across file systems) on any other failure."""
    return _rename2(source, target, _RENAME_NOREPLACE)


def _rename2(first: Path, second: Path, flags: int) -> bool:
    call = _renameat2()
    if call is None:
        return False
    done = call(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), flags)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))
