"""Editing a session file in place for tests: as `cat new > f` or an editor that saves in
place does, then with the mtime set back (only the ctime still tells)."""

from __future__ import annotations

import os
from pathlib import Path


def edit_in_place(path: Path, replace: dict[bytes, bytes]) -> None:
    """Replace each key by its value (same length, found once) in the file's bytes, written
    over the same inode, then set the mtime back to what it was."""
    before = path.stat()
    data = path.read_bytes()
    for old, new in replace.items():
        assert len(old) == len(new) and data.count(old) == 1
        data = data.replace(old, new)
    with path.open("r+b") as fh:
        fh.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )
