"""`SessionSummary`: one session as Pi's listing sees it, plus what the picker wants beyond Pi."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import msgspec

from pitui.core.format.jsvalues import normalize_ws_lower
from pitui.core.format.timestamps import iso_ms

PI_KEYS = (
    "path",
    "id",
    "cwd",
    "name",
    "parentSessionPath",
    "created",
    "modified",
    "messageCount",
    "firstMessage",
)


def _iso(ms: int | None) -> str | None:
    return None if ms is None else iso_ms(ms)


@dataclass
class SessionSummary:
    """Pi's `SessionInfo` (times as Unix ms; None = Invalid Date) and the extra fields.

    `id` and `parent_session_path` keep the header's raw JSON values, as Pi does.
    """

    path: str
    id: Any
    cwd: str
    name: str | None
    parent_session_path: Any
    created_ms: int | None
    modified_ms: int | None
    message_count: int
    first_message: str
    all_messages_text: str = ""
    entry_count: int = 0
    branch_count: int = 0
    labels: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    total_tokens: int = 0
    total_cost: float = 0.0
    malformed_lines: int = 0
    writing_in_progress: bool = False
    size: int = 0
    mtime_ns: int = 0
    _lower: str | None = field(default=None, repr=False, compare=False)
    _normalized: str | None = field(default=None, repr=False, compare=False)

    @property
    def created(self) -> str | None:
        return _iso(self.created_ms)

    @property
    def modified(self) -> str | None:
        return _iso(self.modified_ms)

    @property
    def sort_time(self) -> float:
        return float("nan") if self.modified_ms is None else float(self.modified_ms)

    @property
    def lower_text(self) -> str:
        """Lowercased `allMessagesText`, computed once (Pi's picker caches it the same way)."""
        if self._lower is None:
            self._lower = self.all_messages_text.lower()
        return self._lower

    @property
    def normalized_text(self) -> str:
        """Lowercased text with whitespace runs as one space, trimmed (for phrase search)."""
        if self._normalized is None:
            self._normalized = normalize_ws_lower(self.all_messages_text)
        return self._normalized

    def pi_json(self) -> dict[str, Any]:
        """Exactly Pi's keys, dates as toISOString, absent values as null."""
        return {
            "path": self.path,
            "id": self.id,
            "cwd": self.cwd,
            "name": self.name,
            "parentSessionPath": self.parent_session_path,
            "created": self.created,
            "modified": self.modified,
            "messageCount": self.message_count,
            "firstMessage": self.first_message,
        }

    def to_json(self) -> dict[str, Any]:
        """Pi's keys first, then pitui's extra summary fields."""
        out = self.pi_json()
        out.update(
            entryCount=self.entry_count,
            branchCount=self.branch_count,
            labels=list(self.labels),
            models=list(self.models),
            totalTokens=self.total_tokens,
            totalCost=self.total_cost,
            malformedLines=self.malformed_lines,
            writingInProgress=self.writing_in_progress,
        )
        return out

    def to_record(self) -> dict[str, Any]:
        """Everything but the message text (stored apart in the index)."""
        return {name: getattr(self, name) for name in _RECORD_FIELDS}

    @classmethod
    def from_record(cls, record: bytes, text: str) -> SessionSummary:
        """The summary `to_record()` stored (as JSON), with its message text."""
        summary = _decode_record(record)
        summary.all_messages_text = text
        return summary


_decode_record = msgspec.json.Decoder(SessionSummary).decode
_RECORD_FIELDS = tuple(
    f.name
    for f in fields(SessionSummary)
    if f.name not in ("all_messages_text", "_lower", "_normalized")
)
