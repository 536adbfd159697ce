"""A pi's lines written after its session was taken away, joined back to the session.

Pi appends each entry by path (`appendFileSync`: open, append, close). A pi still running
when its session was archived, trashed or moved makes a new file at the old path on its next
entry: a headerless file, which Pi refuses to open ("not a valid session"). Its first entry's
`parentId` is an id of the session it continues (the pi's leaf then), and it has the
session's file name. Such a file is a *continuation*: its lines belong at the end of the
session, in the order pi wrote them.

Taking a continuation's lines (`Joiner`) never loses one a pi is writing: the file is first
renamed aside in its own folder (a pi that opens the path after that makes a new file there,
taken next), read and appended whole to the session at once (so that the session can be put
back at the path before the pi's next line); then, once no other process has the file set
aside open for writing, what a writer appended to it since is taken too, and only then is it
removed. Its appends are pitui's own writes (`write_guard.remember_own_write`): a move or a
write right after does not take them for another program's.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.changes.file_writes import append_whole, sync_file, sync_folder
from pitui.core.changes.first_line import first_entry
from pitui.core.changes.move_file import TAKEN_MARK, rename_never_over
from pitui.core.changes.write_guard import fingerprint, remember_own_write
from pitui.core.changes.writers_gone import wait_for_writers
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.regular_file import open_regular
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session

CHUNK = 1 << 20
FIRST_LINE_WAIT = 2.0  # seconds a file just made by a writer may stay without a line
ROUNDS = 20  # continuations made again while one is taken (a pi writing fast) before giving up


@dataclass(frozen=True)
class Continuation:
    """The headerless file at `path` continues the session at `session` (from `parent_id`)."""

    path: Path
    session: Path
    parent_id: str


def headerless_parent(path: Path) -> str | None:
    """The `parentId` of the first entry of a file without a session header, else None."""
    first = first_entry(path)
    if first is None or first.get("type") == EntryType.SESSION:
        return None
    parent = first.get("parentId")
    return parent if isinstance(parent, str) and parent else None


def continuation_of(path: Path, session: Path) -> Continuation | None:
    """`path` as a continuation of `session` (its first entry's parent is one of the
    session's entries), or None."""
    parent = headerless_parent(path)
    if parent is None:
        return None
    try:
        ids = Session(session).tree.by_id
    except (NotASession, OSError, PituiError):
        return None
    return Continuation(path, session, parent) if parent in ids else None


def rejoin(continuation: Continuation) -> int:
    """Append the continuation's lines to its session, and those of every file a writer
    makes at its path meanwhile; returns the number of lines moved."""
    joiner = Joiner(continuation.session)
    try:
        joiner.take_all(continuation.path)
    finally:
        lines = joiner.finish(continuation.session)
    return lines


def place_joining(session: Path, target: Path, place: Callable[[], None]) -> int:
    """Put `session` at `target` with `place()`, which never goes over a file (it raises
    `FileExistsError` when one is there): a continuation of it at `target` is first taken
    into it, again each time a writer makes one, until it is placed. Returns the number of
    lines joined."""
    joiner = Joiner(session)
    placed = False
    try:
        for _ in range(ROUNDS):
            joiner.take_all(target)
            try:
                place()
                placed = True
                break
            except FileExistsError:
                joiner.catch_up()  # what a writer added before making this file: its parent
                if not joiner.continues(target) and not _was_being_made(target):
                    raise PituiError(  # another session: never over it
                        f"{shown(target)} exists and is another file: nothing was moved over it"
                    ) from None
        else:
            raise PituiError(f"a writer keeps making {shown(target)} again: nothing was moved")
    finally:
        lines = joiner.finish(target if placed else session)
    return lines


class Joiner:
    """Takes continuations into one session quickly (a pi may make the next one within
    milliseconds), then, in `finish`, once no writer holds what it set aside, takes what was
    appended to those since, fsyncs and removes them."""

    def __init__(self, session: Path) -> None:
        self.session = session
        self._ids: set[str] | None = None
        self._taken: list[tuple[Path, int, int]] = []  # (aside, fd, bytes taken)
        self._after: os.stat_result | None = None  # the session as the last append left it
        self.lines = 0

    def continues(self, path: Path) -> bool:
        """Whether `path` is a continuation of the session (as it is now, joined lines
        included)."""
        parent = headerless_parent(path)
        return parent is not None and parent in self.ids()

    def ids(self) -> set[str]:
        if self._ids is None:
            try:
                self._ids = set(Session(self.session).tree.by_id)
            except (NotASession, OSError, PituiError):
                self._ids = set()
        return self._ids

    def take_all(self, path: Path) -> None:
        """Take the continuation at `path` and each one a writer makes there meanwhile."""
        for _ in range(ROUNDS):
            self.catch_up()  # a writer made the next file once done with those taken
            if not self.continues(path):
                return
            self._take(path)
        if self.continues(path):
            raise PituiError(f"a writer keeps making {shown(path)} again: it was left there")

    def _take(self, path: Path) -> None:
        aside = path.with_name(f".{path.name}{TAKEN_MARK}{secrets.token_hex(4)}")
        try:
            rename_never_over(path, aside)
        except OSError as error:
            raise PituiError(f"cannot take {shown(path)}: {os_reason(error)}") from None
        try:
            fd = open_regular(aside)
        except OSError as error:
            raise PituiError(_kept(path, aside, os_reason(error))) from None
        self._taken.append((aside, fd, 0))
        data = _read_from(fd, 0)
        data = data[: data.rfind(b"\n") + 1]  # a line being written: taken in `finish`
        self._append(self.session, aside, path, data)
        self._taken[-1] = (aside, fd, len(data))

    def catch_up(self) -> None:
        """Take the whole lines appended to the files set aside since they were taken (by a
        writer that had one open): a writer appends to the file it opened, then opens the
        next, so those lines come before its next ones. (A line written between this and
        the session's placing still follows its next ones: `finish` takes it last.)"""
        for i, (aside, fd, taken) in enumerate(self._taken):
            data = _read_from(fd, taken)
            data = data[: data.rfind(b"\n") + 1]
            if data:
                self._append(self.session, aside, aside, data)
                self._taken[i] = (aside, fd, taken + len(data))

    def _append(self, into: Path, aside: Path, path: Path, data: bytes) -> None:
        try:
            self._after = append_whole(into, data, sync=False)
        except PituiError as error:
            raise PituiError(_kept(path, aside, str(error))) from None
        self.lines += data.count(b"\n")
        for line in data.splitlines():
            entry_id = _entry_id(line)
            if entry_id is not None:
                self.ids().add(entry_id)

    def finish(self, into: Path) -> int:
        """Lines appended to a file set aside after it was taken (by a writer that had it
        open) go to `into` (where the session is now); then each is removed. Returns the
        number of lines joined."""
        errors = []
        for aside, fd, taken in self._taken:
            try:
                writer = wait_for_writers(fd)
                if writer is not None:
                    raise PituiError(_kept(aside, aside, f"{writer.describe()} holds it open"))
                rest = _read_from(fd, taken)
                if rest:
                    self._append(into, aside, aside, rest)
                with contextlib.suppress(OSError):
                    os.unlink(aside)
            except PituiError as error:
                errors.append(str(error))
            finally:
                os.close(fd)
        if self._taken:
            sync_file(into)
            sync_folder(self._taken[0][0].parent)
            self._remember(into)
        self._taken = []
        if errors:
            raise PituiError(errors[0])
        return self.lines

    def _remember(self, into: Path) -> None:
        """Record the session's state as pitui's own write, as every write of pitui's is,
        if nothing was appended to it since pitui's last append."""
        if self._after is None:
            return
        try:
            now = os.stat(into)
        except OSError:
            return
        if fingerprint(now) == fingerprint(self._after):
            remember_own_write(into.absolute(), now)


def _was_being_made(path: Path) -> bool:
    """Whether the file at `path` had no whole line yet and then got one: a writer made it
    and had not written its first line (Pi opens, then appends). Waits up to
    `FIRST_LINE_WAIT` for that line."""
    if _has_whole_line(path):
        return False
    end = time.monotonic() + FIRST_LINE_WAIT
    while time.monotonic() < end:
        time.sleep(0.01)
        if _has_whole_line(path):
            return True
    return False


def _has_whole_line(path: Path) -> bool:
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return True  # gone (taken or moved): the next round sees what is there
    try:
        return b"\n" in os.pread(fd, CHUNK, 0)
    except OSError:
        return True
    finally:
        os.close(fd)


def _entry_id(line: bytes) -> str | None:
    try:
        value = parse_line(line.rstrip(b"\r"))
    except LineError:
        return None
    entry_id = value.get("id") if isinstance(value, dict) else None
    return entry_id if isinstance(entry_id, str) else None


def _read_from(fd: int, offset: int) -> bytes:
    parts = []
    while chunk := os.pread(fd, CHUNK, offset):
        parts.append(chunk)
        offset += len(chunk)
    return b"".join(parts)


def _kept(source: Path, aside: Path, why: str) -> str:
    return f"cannot take the lines of {shown(source)} ({why}): they are in {shown(aside)}"
