"""One session entry as read from a file, and the diagnostics of reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pitui.core.jsonline import parse_line
from pitui.core.light import content_has_text
from pitui.core.source import LineSource


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something wrong with one line (1-based line number, byte offset) or with the tree."""

    line: int
    offset: int
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "tree"
        return f"{where}: {self.reason}"


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class Entry:
    """An entry line: where it stands in the file, the fields the tree needs, and `raw`, the
    whole parsed JSON object (unknown fields included).

    Entries read from current-format files keep only their byte range and read `raw` again
    from the file when first asked (most entries of a large session are never displayed), so
    memory stays small. Reading never writes: migrations only touch the in-memory `raw`.
    """

    __slots__ = (
        "_end",
        "_raw",
        "_source",
        "has_text",
        "index",
        "line",
        "offset",
        "parent_id",
        "raw_id",
        "role",
        "stop_reason",
        "timestamp",
        "type",
    )

    def __init__(self, raw: dict[str, Any], line: int, offset: int, index: int) -> None:
        self._raw: dict[str, Any] | None = raw
        self._source: LineSource | None = None
        self._end = 0
        self.line = line
        self.offset = offset
        self.index = index
        message = raw.get("message")
        role = message.get("role") if isinstance(message, dict) else None
        self._set_fields(
            raw.get("type"), raw.get("id"), raw.get("parentId"), raw.get("timestamp"), role
        )
        self.has_text: bool | None = None  # None: work it out from `raw` when needed
        self.stop_reason: Any = message.get("stopReason") if isinstance(message, dict) else None

    @classmethod
    def lazy(
        cls, fields: Any, source: LineSource, span: tuple[int, int], line: int, index: int
    ) -> Entry:
        """An entry whose `raw` is read again from `source` (the byte range `span`) when first
        used. `fields` (see `pitui.core.light`) has type, id, parentId, timestamp and message,
        the string fields already checked to be strings or None."""
        entry = cls.__new__(cls)
        entry._raw = None
        entry._source = source
        entry.offset, entry._end = span
        entry.line = line
        entry.index = index
        kind = fields.type
        entry.type = "?" if kind is None else kind
        entry.raw_id = fields.id
        entry.parent_id = fields.parentId
        entry.timestamp = fields.timestamp
        message = fields.message
        if message is None:
            entry.role = entry.stop_reason = entry.has_text = None
        else:
            entry.role = message.role
            entry.stop_reason = message.stopReason
            is_assistant = message.role == "assistant"
            entry.has_text = content_has_text(message.content) if is_assistant else None
        return entry

    def _set_fields(self, kind: Any, entry_id: Any, parent: Any, timestamp: Any, role: Any) -> None:
        self.type: str = kind if isinstance(kind, str) else "?"
        self.raw_id: str | None = _text_or_none(entry_id)  # as written; None if absent
        self.parent_id: str | None = _text_or_none(parent)
        self.timestamp: Any = timestamp
        self.role: str | None = _text_or_none(role)

    @property
    def id(self) -> str:
        """The entry's id; an entry without one gets a stand-in naming its line."""
        return self.raw_id if self.raw_id is not None else f"line:{self.line}"

    @property
    def raw(self) -> dict[str, Any]:
        if self._raw is None:
            assert self._source is not None
            self._raw = self._read_again(self._source)
            self._source = None
        return self._raw

    def _read_again(self, source: LineSource) -> dict[str, Any]:
        """The line's JSON, read again; a stand-in naming the problem if the bytes there are
        no longer this entry (the file was rewritten in place since it was read)."""
        try:
            raw = parse_line(source.read_exact(self.offset, self._end))
        except (OSError, ValueError) as error:
            raw = {"error": str(error)}
        if isinstance(raw, dict) and raw.get("id") == self.raw_id and raw.get("type") == self.type:
            return raw
        return {
            "type": self.type,
            "id": self.raw_id,
            "parentId": self.parent_id,
            "timestamp": self.timestamp,
            "pitui": f"line {self.line} changed on disk after it was read; reopen the session",
        }

    @property
    def message(self) -> dict[str, Any] | None:
        value = self.raw.get("message")
        return value if isinstance(value, dict) else None

    def __repr__(self) -> str:
        return f"Entry({self.type} {self.id} parent={self.parent_id} line={self.line})"
