"""One session entry as read from a file, and the diagnostics of reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something wrong with one line (1-based line number, byte offset) or with the tree."""

    line: int
    offset: int
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "tree"
        return f"{where}: {self.reason}"


class Entry:
    """An entry line: the parsed JSON object (kept whole, unknown fields included) and where
    it stands in the file. `raw` is never written back unchanged-by-reading: migrations only
    touch the in-memory copy."""

    __slots__ = ("index", "line", "offset", "raw")

    def __init__(self, raw: dict[str, Any], line: int, offset: int, index: int) -> None:
        self.raw = raw
        self.line = line
        self.offset = offset
        self.index = index

    @property
    def id(self) -> str:
        value = self.raw.get("id")
        return value if isinstance(value, str) else f"line:{self.line}"

    @property
    def parent_id(self) -> str | None:
        value = self.raw.get("parentId")
        return value if isinstance(value, str) else None

    @property
    def type(self) -> str:
        value = self.raw.get("type")
        return value if isinstance(value, str) else "?"

    @property
    def timestamp(self) -> Any:
        return self.raw.get("timestamp")

    @property
    def message(self) -> dict[str, Any] | None:
        value = self.raw.get("message")
        return value if isinstance(value, dict) else None

    @property
    def role(self) -> str | None:
        message = self.message
        role = message.get("role") if message else None
        return role if isinstance(role, str) else None

    def __repr__(self) -> str:
        return f"Entry({self.type} {self.id} parent={self.parent_id} line={self.line})"
