"""Bringing one file's index row up to date, reading only the bytes that are new.

A file is resumed only after an append: same inode, grown (or not changed at all), and both
its first bytes and the bytes just before the resume point as they were. Any other change
(an edit in place, `cat new > f`, the mtime maybe set back) reads it again whole. An edit
more than `TAIL_BYTES` before the resume point made together with an append is not seen
(seeing it would mean reading every byte again on each append)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import BinaryIO

from pitui.core.catalog.index.index import FileRow, ToolTask, Update
from pitui.core.catalog.index.records import ToolPiece
from pitui.core.catalog.scan.file_ops import file_ops, header_cwd
from pitui.core.catalog.scan.filestat import FileStat, Unreadable, not_regular, unchanged
from pitui.core.catalog.scan.lines import LineReader
from pitui.core.catalog.scan.tools import tool_text
from pitui.core.catalog.session_info.builder import SummaryBuilder
from pitui.core.catalog.session_info.js_numbers import node_mtime_ms
from pitui.core.catalog.summary import SessionSummary
from pitui.core.regular_file import NotRegularFile, open_regular_file

try:  # hashlib's blake2b itself, without loading OpenSSL first (~4 ms of every grown listing)
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

HEAD_BYTES = 4096
TAIL_BYTES = 4096  # checked just before the resume point
HEADER_MAX = 1024 * 1024  # a header line read for its cwd (a longer one: no cwd)


def _hash(fh: BinaryIO, start: int, length: int) -> bytes:
    fh.seek(start)
    return blake2b(fh.read(length), digest_size=16).digest()


def _tail_hash(fh: BinaryIO, offset: int) -> bytes:
    """Of the bytes just before `offset` (they end with the newline of the last line read)."""
    start = max(0, offset - TAIL_BYTES)
    return _hash(fh, start, offset - start)


def _can_resume(row: FileRow | None, st: FileStat, fh: BinaryIO) -> bool:
    """Whether the file changed only by an append since `row` (see the module's doc): the
    same size with another mtime or ctime is an edit, never an append."""
    if row is None or row.inode != st.inode:
        return False
    if st.size <= row.size and not (st.size == row.size and unchanged(row, st)):
        return False
    if _hash(fh, 0, row.head_len) != row.head_hash:
        return False
    return _tail_hash(fh, row.offset) == row.tail_hash


def read_update(
    path: str,
    row: FileRow | None,
    load: Callable[[str], tuple[FileRow, SummaryBuilder] | None],
    keep: bool = False,
) -> Update | Unreadable | None:
    """The file's new index content, None when it vanished, or why it cannot be read.

    `load` gives the indexed row and builder state together (another catalog on the same
    cache may have moved them on since `row` was read). `keep`: the update carries its
    builder, for the index to resume from next time (read in this process)."""
    try:
        with open_regular_file(path) as fh:
            st = FileStat(*_fstat(fh))
            builder, start = None, 0
            if _can_resume(row, st, fh):
                loaded = load(path)
                if loaded is not None and _can_resume(loaded[0], st, fh):
                    builder, start = loaded[1], loaded[0].offset
            resume = builder is not None
            if builder is None:
                builder = SummaryBuilder()
            problem = None
            try:
                offset, tail, end = _feed(builder, fh, start)
            except OSError:
                raise
            except Exception as error:  # a value nothing expected: list what was read
                problem = _describe(error)
                offset, tail, end = st.size, b"", st.size
            head_len = min(end, HEAD_BYTES)
            head = _hash(fh, 0, head_len)
            tail_hash = _tail_hash(fh, offset)
            after = FileStat(*_fstat(fh))
    except FileNotFoundError:
        return None
    except NotRegularFile as error:
        return Unreadable(path, not_regular(error.mode) or "not a regular file", skipped=True)
    except OSError as error:
        return Unreadable(path, error.strerror or str(error))
    mtime = after.mtime_ns if after.size == end else 0  # grew while read: check again next time
    row = FileRow(
        path, end, mtime, st.inode, head_len, head, offset, True, after.ctime_ns, tail_hash
    )
    if problem is None:
        try:
            summary = builder.summarize(path, end, after.mtime_ns, tail)
            row.is_session = summary is not None
            return Update.of(row, builder, summary, reset=not resume, keep=keep)
        except Exception as error:
            problem = _describe(error)
    return _partial(row, builder, after.mtime_ns, problem)


def _describe(error: BaseException) -> str:
    return f"indexed in part ({type(error).__name__}: {error})"[:300]


def _partial(row: FileRow, builder: SummaryBuilder, mtime_ns: int, problem: str) -> Update:
    """What could be read of a session whose reading failed, with why; its row is never taken
    as up to date or resumed from (no mtime, no head hash), so it is read again next time."""
    row.mtime_ns, row.head_hash = 0, b""
    try:
        summary = builder.summarize(row.path, row.size, mtime_ns)
    except Exception:
        summary = None
    if summary is None:
        header = builder.header or {}
        cwd = header.get("cwd")
        summary = SessionSummary(
            path=row.path, id=header.get("id"), cwd=cwd if isinstance(cwd, str) else "",
            name=None, parent_session_path=header.get("parentSession"), created_ms=None,
            modified_ms=node_mtime_ms(mtime_ns), message_count=builder.message_count,
            first_message=builder.first_message or "(no messages)", size=row.size,
            mtime_ns=mtime_ns,
        )  # fmt: skip
    summary.problem = problem
    try:
        return Update.of(row, builder, summary, reset=True)
    except Exception:
        row.is_session = False  # listed now, not stored: read again next time
        return Update(row, summary, True, b"{}", None)


def _fstat(fh: BinaryIO) -> tuple[int, int, int, int]:
    st = os.fstat(fh.fileno())
    return st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns


def _feed(builder: SummaryBuilder, fh: BinaryIO, start: int) -> tuple[int, bytes, int]:
    """Feed complete lines from `start`; returns (offset after last newline, tail, end)."""
    reader = LineReader(fh, start)
    for data, _ in reader:
        builder.feed_lines(data.split(b"\n"))
    return reader.offset, reader.tail, reader.end


def read_tools(task: ToolTask) -> list[ToolPiece]:
    """Tool text and file ops of the task's bytes, in pieces of about CHUNK bytes (each its
    own sub-task, ending after a newline); [] when the file is no longer the one the task
    was made for."""
    pieces: list[ToolPiece] = []
    try:
        with open_regular_file(task.path) as fh:
            size, _, inode, _ = _fstat(fh)
            if inode != task.inode or size < task.end:
                return []
            cwd = header_cwd(fh.readline(HEADER_MAX))
            if task.start > 0:
                fh.seek(task.start - 1)
                if fh.read(1) != b"\n":
                    return []
            start = task.start
            for data, end in LineReader(fh, task.start, task.end):
                piece = ToolTask(task.file_id, task.path, start, end, inode)
                pieces.append((piece, tool_text(data), file_ops(data, cwd)))
                start = end
    except (OSError, NotRegularFile):
        return []
    return pieces if start == task.end else []
