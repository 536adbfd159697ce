"""A pi's lines written after its session was taken away, joined back to the session.

Pi appends each entry by path (`appendFileSync`: open, append, close). A pi still running
when its session was archived, trashed or moved makes a new file at the old path on its next
entry: a headerless file, which Pi refuses to open ("not a valid session"). Its first entry's
`parentId` is an id of the session it continues (the pi's leaf then), and it has the
session's file name. Such a file is a *continuation*: its lines belong at the end of the
session, in the order pi wrote them.

Taking a continuation's lines (`take_lines`) never loses one a pi is writing: the file is
first renamed aside in its own folder (a pi that opens the path after that makes a new file
there, taken next), read to its end once no other process has it open for writing, appended
whole to the session, read back, and only then removed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.changes.file_writes import append_whole, sync_folder
from pitui.core.changes.first_line import first_entry
from pitui.core.changes.move_file import TAKEN_MARK, rename_never_over
from pitui.core.changes.writers_gone import wait_for_writers
from pitui.core.errors import PituiError
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session
from pitui.core.session.source import open_regular

CHUNK = 1 << 20
ROUNDS = 5  # continuations made again while one is taken (a pi writing fast) before giving up


@dataclass(frozen=True)
class Continuation:
    """The headerless file at `path` continues the session at `session` (from `parent_id`)."""

    path: Path
    session: Path
    parent_id: str


def headerless_parent(path: Path) -> str | None:
    """The `parentId` of the first entry of a file without a session header, else None."""
    first = first_entry(path)
    if first is None or first.get("type") == "session":
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
    """Append the continuation's lines to its session, and every file a writer makes at its
    path meanwhile; returns the number of lines moved."""
    lines = 0
    for _ in range(ROUNDS):
        if not os.path.lexists(continuation.path):
            return lines
        lines += take_lines(continuation.path, continuation.session)
    if os.path.lexists(continuation.path):
        raise PituiError(
            f"a writer keeps making {shown(continuation.path)} again: rejoined {lines} lines, "
            "the rest is there"
        )
    return lines


def take_lines(source: Path, into: Path) -> int:
    """Move every line of `source` to the end of `into` (see the module's docstring)."""
    aside = source.with_name(f".{source.name}{TAKEN_MARK}{secrets.token_hex(4)}")
    try:
        rename_never_over(source, aside)
    except OSError as error:
        raise PituiError(f"cannot take {shown(source)}: {os_reason(error)}") from None
    try:
        fd = open_regular(aside)
    except OSError as error:
        raise PituiError(_kept(source, aside, os_reason(error))) from None
    try:
        writer = wait_for_writers(fd)
        if writer is not None:
            raise PituiError(_kept(source, aside, f"{writer.describe()} holds it open"))
        data = _read_all(fd)
        try:
            append_whole(into, data)
        except PituiError as error:
            raise PituiError(_kept(source, aside, str(error))) from None
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(aside)
    sync_folder(aside.parent)
    return data.count(b"\n")


def _read_all(fd: int) -> bytes:
    parts = []
    while chunk := os.read(fd, CHUNK):
        parts.append(chunk)
    return b"".join(parts)


def _kept(source: Path, aside: Path, why: str) -> str:
    return f"cannot take the lines of {shown(source)} ({why}): they are in {shown(aside)}"
