"""Which processes hold a file open: Linux's `/proc/PID/fd`, read once per question.

Two views of one scan. `snapshot()` identifies each descriptor by the (device, inode) of what
it names, so a file renamed since it was opened is still found (the write checks use it).
`open_sessions()` reads only where each descriptor points (`readlink`) and keeps the
`.jsonl` files, for a listing that asks of every session (`pitui list --json`'s `openBy`).
Processes pitui may not inspect (another user's, or gone while being read) are left out: an
answer is what can be seen, never an error. Where `/proc` cannot tell (not Linux), both are
None.

Imported by a warm `pitui list --json` before its kept answer: no dataclasses.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import TypeVar

    T = TypeVar("T")

FileKey = tuple[int, int]  # (st_dev, st_ino)
PROC = "/proc"


class Holder:
    """A process holding a file open, and whether one of its descriptors can write it."""

    __slots__ = ("command", "pid", "writing")

    def __init__(self, pid: int, command: str, writing: bool = False) -> None:
        self.pid = pid
        self.command = command  # /proc/PID/comm ("?" if unreadable)
        self.writing = writing

    def to_json(self) -> dict[str, object]:
        return {"pid": self.pid, "command": self.command}

    def describe(self) -> str:
        return f"pid {self.pid} ({self.command})"

    def __repr__(self) -> str:
        return f"Holder({self.pid}, {self.command!r}, {self.writing})"


class OpenFiles:
    """The files some process had open when `snapshot()` looked, by (device, inode)."""

    __slots__ = ("by_key",)

    def __init__(self, by_key: dict[FileKey, list[Holder]]) -> None:
        self.by_key = by_key

    def holders(self, key: FileKey, *, exclude: int | None = None) -> list[Holder]:
        """The processes holding the file `key` (sorted by pid), without `exclude`."""
        return [h for h in self.by_key.get(key, ()) if h.pid != exclude]


class OpenSessions:
    """The `.jsonl` files some process had open when `open_sessions()` looked, by the path
    its descriptor names (symlinks resolved, as the kernel keeps it)."""

    __slots__ = ("_by_path", "_names")

    def __init__(self, by_path: dict[str, list[Holder]]) -> None:
        self._by_path = by_path
        self._names = {os.path.basename(p) for p in by_path}

    def holders(self, path: str, *, exclude: int | None = None) -> list[Holder]:
        """The processes holding the session at `path` (its real path is looked up only
        when some open file has its name)."""
        if not self._by_path:  # the usual case: a listing of 10,000 rows asks 10,000 times
            return []
        found = self._by_path.get(path)
        if found is None and os.path.basename(path) in self._names:
            found = self._by_path.get(os.path.realpath(path))
        return [h for h in found or () if h.pid != exclude]

    def under(self, folder: str) -> list[tuple[str, list[tuple[int, str]]]]:
        """(path, [(pid, command)]) of the open files under `folder` (or its real path),
        sorted."""
        prefixes = (os.path.join(folder, ""), os.path.join(os.path.realpath(folder), ""))
        held = self._by_path.items()
        found = [(p, [(h.pid, h.command) for h in hs]) for p, hs in held if p.startswith(prefixes)]
        return sorted(found)


def proc_available() -> bool:
    return os.path.isdir(f"{PROC}/self/fd")


def snapshot(keys: Iterable[FileKey] | None = None) -> OpenFiles | None:
    """The open files of every process we may inspect (only `keys`, if given); None where
    `/proc` cannot tell."""
    if not proc_available():
        return None
    wanted = None if keys is None else set(keys)
    found: dict[FileKey, dict[int, Holder]] = {}
    for pid, fd, key in open_descriptors():
        if wanted is None or key in wanted:
            _add(found.setdefault(key, {}), pid, fd)
    return OpenFiles({k: sorted(v.values(), key=_pid) for k, v in found.items()})


def holders_of(path: str | os.PathLike[str], *, exclude: int | None = None) -> list[Holder] | None:
    """The processes (but `exclude`) holding the file at `path` open; None where `/proc`
    cannot tell."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return [] if proc_available() else None
    key = (info.st_dev, info.st_ino)
    found = snapshot([key])
    return None if found is None else found.holders(key, exclude=exclude)


def writers_of(path: str | os.PathLike[str]) -> list[Holder]:
    """The other processes holding the file open for writing: those a write must ask about,
    and the app shows ("open in pi (pid N)"); a reader (`less`, another pitui, pitui's own
    workers) is none of them. Empty where `/proc` cannot tell."""
    return [h for h in holders_of(path, exclude=os.getpid()) or [] if h.writing]


def open_sessions(exclude: int | None = None) -> OpenSessions | None:
    """The `.jsonl` files every process we may inspect (but `exclude`) holds open; None where
    `/proc` cannot tell. One `readlink` a descriptor: about a millisecond for a few thousand."""
    if not proc_available():
        return None
    found: dict[str, dict[int, Holder]] = {}
    for pid, fd, target in _descriptors(os.readlink, exclude):
        if target.endswith(".jsonl"):
            _add(found.setdefault(target, {}), pid, fd)
    return OpenSessions({p: sorted(v.values(), key=_pid) for p, v in found.items()})


def _add(holders: dict[int, Holder], pid: int, fd: str) -> None:
    writing = writable(pid, fd)
    before = holders.get(pid)
    if before is None:
        holders[pid] = Holder(pid, command_name(pid), writing)
    elif writing:
        before.writing = True


def _pid(holder: Holder) -> int:
    return holder.pid


def open_descriptors() -> Iterator[tuple[int, str, FileKey]]:
    """(pid, fd, (dev, ino)) of every open file of every process we may inspect."""
    for pid, fd, target in _descriptors(os.stat):
        yield pid, fd, (target.st_dev, target.st_ino)


def _descriptors(
    look: Callable[[str], T], exclude: int | None = None
) -> Iterator[tuple[int, str, T]]:
    """(pid, fd, `look` at `/proc/PID/fd/FD`) of every descriptor of every process we may
    inspect (but `exclude`); one that is gone by the time we look is left out."""
    try:
        pids = [int(name) for name in os.listdir(PROC) if name.isdigit()]
    except OSError:
        return
    for pid in pids:
        if pid == exclude:
            continue
        folder = f"{PROC}/{pid}/fd"
        try:
            fds = os.listdir(folder)
        except OSError:
            continue
        for fd in fds:
            try:
                target = look(f"{folder}/{fd}")
            except OSError:
                continue
            yield pid, fd, target


def writable(pid: int, fd: str) -> bool:
    """Whether descriptor `fd` of `pid` was opened for writing (its fdinfo flags)."""
    try:
        with open(f"{PROC}/{pid}/fdinfo/{fd}") as fh:
            text = fh.read()
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags:"):
            try:
                access = int(line.split()[1], 8) & os.O_ACCMODE
            except (IndexError, ValueError):
                return False
            return access in (os.O_WRONLY, os.O_RDWR)
    return False


def command_name(pid: int) -> str:
    """The process's name (`/proc/PID/comm`), "?" when it cannot be read."""
    try:
        with open(f"{PROC}/{pid}/comm", encoding="utf-8", errors="replace") as fh:
            return fh.read().strip() or "?"
    except OSError:
        return "?"
