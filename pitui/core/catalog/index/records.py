"""What moves between a file's reader (maybe a worker process) and the index: a file's row,
its new index content, and a range of tool output still to index."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from pitui.core.catalog import lossless_json
from pitui.core.catalog.summary import SessionSummary

if TYPE_CHECKING:
    from pitui.core.catalog.session_info.builder import SummaryBuilder


class FileRow(msgspec.Struct):
    """What the index knows about one file's bytes (a Struct: a warm listing makes one per
    file, and a dataclass costs several times as much to build)."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    head_len: int
    head_hash: bytes
    offset: int
    is_session: bool
    ctime_ns: int = 0
    tail_hash: bytes = b""  # of the bytes just before `offset` (an append leaves them)


@dataclass
class Update:
    """One file's new index content (`reset`: its tool output must be indexed again).

    Made ready to write where the file was read (maybe a worker process): `state` is the
    builder's JSON state, `record` the summary's, `base_text` the conversation text of the
    complete lines when it differs from the summary's (a partial last line adds to that)."""

    row: FileRow
    summary: SessionSummary | None
    reset: bool
    state: bytes
    record: bytes | None
    base_text: str | None

    @classmethod
    def of(
        cls, row: FileRow, builder: SummaryBuilder, summary: SessionSummary | None, reset: bool
    ) -> Update:
        text = summary.all_messages_text if summary else ""
        base = " ".join(builder.texts)
        record = lossless_json.dumps(summary.to_record()) if summary else None
        state = lossless_json.dumps(builder.state())
        base_text = None if base == text else lossless_json.storable(base)
        return cls(row, summary, reset, state, record, base_text)


@dataclass(frozen=True)
class ToolTask:
    """Tool output still to index: bytes `start`..`end` of `path` (inode `inode`)."""

    file_id: int
    path: str
    start: int
    end: int
    inode: int


@dataclass(frozen=True)
class FileOps:
    """The write and edit calls of a range (for the picker's `file:`): each call's id and
    the absolute path it named, and the ids of the calls whose result says they succeeded."""

    writes: list[tuple[str, str]]
    succeeded: list[str]


NO_FILE_OPS = FileOps([], [])
ToolPiece = tuple[ToolTask, str, FileOps]  # a range of a task, its tool text, its file ops
