"""What moves between a file's reader (maybe a worker process) and the index: a file's row,
its new index content, and a range of tool output still to index."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    builder's JSON state, `record` the summary's. The conversation text is stored in two
    parts (see `text_index`): `base`, the text of the complete lines (the builder's, what a
    resumed read continues), and `tail`, what a partial last line adds to it (with its
    separator). When the builder resumed on a stored text it did not read (`after`: that
    text's length, see `SummaryBuilder.text_before`), `base` is only what follows it (with its
    separator), to be appended to it."""

    row: FileRow
    summary: SessionSummary | None
    reset: bool
    state: bytes
    record: bytes | None
    base: str = ""
    tail: str = ""
    after: int | None = None
    # the parents the tree names, stored apart from `state` (see `Index.builder`): all of
    # them on a reset, else the ones first named by what was read
    parents: list[str] = field(default_factory=list)
    # the builder itself, kept by the index to resume from (read here, not in a worker)
    builder: SummaryBuilder | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(
        cls,
        row: FileRow,
        builder: SummaryBuilder,
        summary: SessionSummary | None,
        reset: bool,
        keep: bool = False,
    ) -> Update:
        base = " ".join(builder.texts)
        text = summary.all_messages_text if summary else base  # a non-session's is not searched
        after = builder.text_before
        if text == base:
            base, tail = text, ""  # one string (a worker sends it once)
        elif text.startswith(base):
            tail = text[len(base) :]
        else:  # a summary made without the builder's text (a file read in part, never resumed)
            base, tail, after = text, "", None
        if after:  # separators after the stored text, as if it were in `texts`
            base, tail = (" " + base, tail) if base else ("", " " + tail if tail else "")
        record = summary.stored_record() if summary else None
        # a growing session's whole set of parents, sorted and rewritten on each change, was
        # the largest allocation per change (about 0.75 MB at 45,000 entries)
        fields = builder.state(with_parents=False)
        parents = list(builder.parents) if reset else builder.added_parents
        # a state holding its text (lone surrogates) resumes from the index only
        kept = builder if keep and "text" not in fields else None
        state = lossless_json.dumps(fields)
        return cls(row, summary, reset, state, record, base, tail, after, parents, kept)


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
