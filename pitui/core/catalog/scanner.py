"""Bringing one file's index row up to date, reading only the bytes that are new."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from pitui.core.catalog.builder import SummaryBuilder
from pitui.core.catalog.index import FileRow, ToolTask, Update
from pitui.core.catalog.tools import tool_text

HEAD_BYTES = 4096
CHUNK = 4 * 1024 * 1024


@dataclass
class FileStat:
    size: int
    mtime_ns: int
    inode: int


def stat_of(path: str) -> FileStat | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return FileStat(st.st_size, st.st_mtime_ns, st.st_ino)


def unchanged(row: FileRow | None, st: FileStat) -> bool:
    return (
        row is not None
        and row.size == st.size
        and row.mtime_ns == st.mtime_ns
        and row.inode == st.inode
    )


def _head_hash(fh: BinaryIO, length: int) -> bytes:
    fh.seek(0)
    return hashlib.blake2b(fh.read(length), digest_size=16).digest()


def _can_resume(row: FileRow | None, st: FileStat, fh: BinaryIO) -> bool:
    """Same inode, grown, same first bytes, and the consumed part still ends with a newline."""
    if row is None or row.inode != st.inode or st.size < row.size:
        return False
    if _head_hash(fh, row.head_len) != row.head_hash:
        return False
    if row.offset == 0:
        return True
    fh.seek(row.offset - 1)
    return fh.read(1) == b"\n"


def read_update(
    path: str,
    row: FileRow | None,
    load: Callable[[str], tuple[FileRow, SummaryBuilder] | None],
) -> Update | None:
    """The file's new index content, or None when it vanished or cannot be read.

    `load` gives the indexed row and builder state together (another catalog on the same
    cache may have moved them on since `row` was read)."""
    try:
        with open(path, "rb") as fh:
            st = FileStat(*_fstat(fh))
            builder, start = None, 0
            if _can_resume(row, st, fh):
                loaded = load(path)
                if loaded is not None and _can_resume(loaded[0], st, fh):
                    builder, start = loaded[1], loaded[0].offset
            resume = builder is not None
            if builder is None:
                builder = SummaryBuilder()
            offset, tail, end = _feed(builder, fh, start)
            head_len = min(end, HEAD_BYTES)
            head = _head_hash(fh, head_len)
            after = FileStat(*_fstat(fh))
    except OSError:
        return None
    mtime = after.mtime_ns if after.size == end else 0  # grew while read: check again next time
    summary = builder.summarize(path, end, after.mtime_ns, tail)
    new_row = FileRow(path, end, mtime, st.inode, head_len, head, offset, summary is not None)
    return Update.of(new_row, builder, summary, reset=not resume)


def _fstat(fh: BinaryIO) -> tuple[int, int, int]:
    st = os.fstat(fh.fileno())
    return st.st_size, st.st_mtime_ns, st.st_ino


def _feed(builder: SummaryBuilder, fh: BinaryIO, start: int) -> tuple[int, bytes, int]:
    """Feed complete lines from `start`; returns (offset after last newline, tail, end)."""
    fh.seek(start)
    offset, carry = start, b""
    while True:
        block = fh.read(CHUNK)
        if not block:
            break
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut:
            builder.feed_lines(data[: cut - 1].split(b"\n"))
            offset += cut
        carry = data[cut:]
    return offset, carry, offset + len(carry)


def read_tools(task: ToolTask) -> list[tuple[ToolTask, str]]:
    """Tool text of the task's bytes, in pieces of about CHUNK bytes (each its own sub-task,
    ending after a newline); [] when the file is no longer the one the task was made for."""
    pieces: list[tuple[ToolTask, str]] = []
    try:
        with open(task.path, "rb") as fh:
            size, _, inode = _fstat(fh)
            if inode != task.inode or size < task.end:
                return []
            if task.start > 0:
                fh.seek(task.start - 1)
                if fh.read(1) != b"\n":
                    return []
            start, carry = task.start, b""
            while start + len(carry) < task.end:
                block = fh.read(min(CHUNK, task.end - start - len(carry)))
                if not block:
                    return pieces
                data = carry + block if carry else block
                cut = data.rfind(b"\n") + 1
                carry = data[cut:]
                if cut:
                    end = start + cut
                    pieces.append((ToolTask(task.file_id, task.path, start, end, inode),
                                   tool_text(data[:cut])))  # fmt: skip
                    start = end
    except OSError:
        return []
    return pieces if start == task.end else []
