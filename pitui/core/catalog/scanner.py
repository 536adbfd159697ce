"""Bringing one file's index row up to date, reading only the bytes that are new."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from pitui.core.catalog.builder import SummaryBuilder
from pitui.core.catalog.index import FileRow, Update

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
    path: str, row: FileRow | None, load: Callable[[str], SummaryBuilder]
) -> Update | None:
    """The file's new index content, or None when it vanished or cannot be read."""
    try:
        with open(path, "rb") as fh:
            st = FileStat(*_fstat(fh))
            resume = _can_resume(row, st, fh)
            builder = load(path) if resume and row is not None else SummaryBuilder()
            start = row.offset if resume and row is not None else 0
            offset, tail, end = _feed(builder, fh, start)
            head_len = min(end, HEAD_BYTES)
            head = _head_hash(fh, head_len)
            after = FileStat(*_fstat(fh))
    except OSError:
        return None
    mtime = after.mtime_ns if after.size == end else 0  # grew while read: check again next time
    summary = builder.summarize(path, end, after.mtime_ns, tail)
    new_row = FileRow(path, end, mtime, st.inode, head_len, head, offset, summary is not None)
    return Update(new_row, builder, summary, reset=not resume)


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
        lines = (carry + block).split(b"\n")
        carry = lines.pop()
        for line in lines:
            builder.feed_line(line)
            offset += len(line) + 1
    return offset, carry, offset + len(carry)
