"""What makes a session large: its bytes by kind of content, its largest entries; and the
store's sessions by size, with per project folder totals.

A line's bytes go to the kind of its content: the JSON of each image, thinking, text and
tool-call block is counted under that kind, and the rest of the line (ids, usage, metadata)
under the line's own kind (a tool result's under its tool, a user message's under user text)
or under "metadata and other entries" (an assistant message's usage, ids and times; the
header, model changes, labels, names). So the kinds of a session add up to its size exactly.
"""

from __future__ import annotations

import heapq
import os
import stat
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson

from pitui.core.changes.first_line import has_session_header
from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, dumps, parse_line
from pitui.core.regular_file import read_regular
from pitui.core.rows.render_text import raw_entry_text
from pitui.core.rows.safe_text import one_line

TEXT_START = 60  # characters of a largest entry's text shown
IMAGES = "images"
THINKING = "thinking"
ASSISTANT_TEXT = "assistant text"
TOOL_CALLS = "tool calls"
USER_TEXT = "user text"
SUMMARIES = "compaction and branch summaries"
CUSTOM = "custom entries"
OTHER = "metadata and other entries"  # "other" said too little (an audit)
TOOL_RESULT = "tool result: "  # + the tool's name
USER_BASH = "user bash (!)"
_BLOCK_KINDS = {"image": IMAGES, "thinking": THINKING, "toolCall": TOOL_CALLS}
# The kind of each entry type's line (a message's is its role's; another type's is OTHER).
_TYPE_KINDS: dict[str, str] = {
    EntryType.COMPACTION: SUMMARIES,
    EntryType.BRANCH_SUMMARY: SUMMARIES,
    EntryType.CUSTOM: CUSTOM,
    EntryType.CUSTOM_MESSAGE: CUSTOM,
}


@dataclass(frozen=True)
class EntrySize:
    """One line: its size, entry id (None if it has none), what it is, its 1-based line,
    where it starts in the file, and (for the largest) the start of its text."""

    bytes: int
    id: str | None
    kind: str
    line: int
    start: int = 0
    text: str = ""


@dataclass
class SessionSize:
    path: str
    size: int
    kinds: Counter[str] = field(default_factory=Counter)
    largest: list[EntrySize] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "bytes": self.size,
            "kinds": dict(self.kinds.most_common()),
            "largest": [
                {"id": e.id, "kind": e.kind, "line": e.line, "bytes": e.bytes, "text": e.text}
                for e in self.largest
            ],
        }


def session_size(path: str, top: int = 10) -> SessionSize:
    """The breakdown of one session file (every byte, the partial last line included)."""
    try:
        data = read_regular(path)
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    if not _starts_with_header(data):
        raise PituiError(f"{path} is not a Pi session (its first line is not a session header)")
    result = SessionSize(path, len(data))
    lines: list[EntrySize] = []
    start = 0
    number = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        number += 1
        entry = _line(data[start:end], number, result.kinds)
        if entry is not None:
            lines.append(replace(entry, start=start))
        start = end
    largest = heapq.nlargest(top, lines, key=lambda e: e.bytes)
    result.largest = [replace(e, text=_text_start(data, e)) for e in largest]
    return result


def _text_start(data: bytes, entry: EntrySize) -> str:
    """The first words of a largest entry's text, on one line (parsed again: only these)."""
    raw = parse_line(data[entry.start : entry.start + entry.bytes])
    return one_line(" ".join(raw_entry_text(raw)[: TEXT_START * 2].split()))[:TEXT_START]


def _starts_with_header(data: bytes) -> bool:
    """Pi's rule: the first line that parses must be `{"type": "session", ...}`."""
    for line in data.split(b"\n", 64)[:64]:
        try:
            first = parse_line(line)
        except LineError:
            continue
        return isinstance(first, dict) and first.get("type") == EntryType.SESSION
    return False


def _line(line: bytes, number: int, kinds: Counter[str]) -> EntrySize | None:
    size = len(line)
    try:
        raw = parse_line(line)  # as JSON.parse reads it (what orjson refuses too)
    except LineError:
        kinds[OTHER] += size
        return None
    if not isinstance(raw, dict):
        kinds[OTHER] += size
        return None
    kind, blocks = _kind_and_blocks(raw)
    rest = size
    for block_kind, block in blocks:
        part = min(_json_size(block), rest)
        kinds[block_kind] += part
        rest -= part
    kinds[kind] += rest
    entry_id = raw.get("id")
    return EntrySize(size, entry_id if isinstance(entry_id, str) else None, _describe(raw), number)


def _json_size(block: Any) -> int:
    """The bytes of a block's JSON (as JSON.stringify writes it where orjson cannot: a lone
    surrogate, nesting deeper than orjson's)."""
    try:
        return len(orjson.dumps(block))
    except orjson.JSONEncodeError:
        return len(dumps(block).encode())


def _describe(raw: dict[str, Any]) -> str:
    """What a largest entry is: its type, or its message's role (and tool)."""
    kind = raw.get("type")
    message = raw.get("message")
    if kind == EntryType.MESSAGE and isinstance(message, dict):
        role = message.get("role")
        if role == "toolResult":
            return f"toolResult {message.get('toolName')}"
        return str(role)
    return str(kind)


def _kind_and_blocks(raw: dict[str, Any]) -> tuple[str, list[tuple[str, Any]]]:
    """The line's own kind, and its content blocks counted under theirs."""
    kind = raw.get("type")
    message = raw.get("message")
    if kind == EntryType.MESSAGE and isinstance(message, dict):
        return _message_kind_and_blocks(message)
    return (_TYPE_KINDS.get(kind, OTHER) if isinstance(kind, str) else OTHER), []


def _message_kind_and_blocks(message: dict[str, Any]) -> tuple[str, list[tuple[str, Any]]]:
    role = message.get("role")
    content = message.get("content")
    blocks = content if isinstance(content, list) else []
    if role == "toolResult":
        name = message.get("toolName")
        own = TOOL_RESULT + (name if isinstance(name, str) else "?")
        return own, _blocks(blocks, own)
    if role == "user":
        return USER_TEXT, _blocks(blocks, USER_TEXT)
    if role == "assistant":
        return OTHER, _blocks(blocks, ASSISTANT_TEXT)
    if role == "bashExecution":
        return USER_BASH, []
    if role == "custom":
        return CUSTOM, []
    return OTHER, []


def _blocks(blocks: list[Any], text_kind: str) -> list[tuple[str, Any]]:
    out = []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        block_type = block.get("type")
        kind = _BLOCK_KINDS.get(block_type) if isinstance(block_type, str) else None
        out.append((kind or text_kind, block))
    return out


@dataclass
class StoreSizes:
    """Every session file in scope by size, totals per project folder, and the files in scope
    that are no sessions (no session header: Pi lists none of them)."""

    sessions: list[tuple[str, int]]
    folders: list[tuple[str, int, int]]  # folder, sessions, bytes
    others: list[tuple[str, int]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(size for _, size in self.sessions)

    def to_json(self, top: int) -> dict[str, Any]:
        return {
            "sessions": len(self.sessions),
            "bytes": self.total,
            "largest": [{"path": p, "bytes": s} for p, s in self.sessions[:top]],
            "folders": [{"folder": f, "sessions": n, "bytes": b} for f, n, b in self.folders],
            "notSessions": [{"path": p, "bytes": s} for p, s in self.others],
        }


def store_sizes(files: list[str]) -> StoreSizes:
    """Sizes from the file system; each file's first line only tells a session from another
    file."""
    sessions: list[tuple[str, int]] = []
    others: list[tuple[str, int]] = []
    folders: dict[str, list[int]] = {}
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if not has_session_header(Path(path)):
            others.append((path, st.st_size))
            continue
        sessions.append((path, st.st_size))
        folder = folders.setdefault(os.path.dirname(path), [0, 0])
        folder[0] += 1
        folder[1] += st.st_size
    sessions.sort(key=_largest_first)
    others.sort(key=_largest_first)
    ordered = sorted(((f, n, b) for f, (n, b) in folders.items()), key=lambda x: (-x[2], x[0]))
    return StoreSizes(sessions, ordered, others)


def _largest_first(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]
