"""One session entry as read from a file, and the diagnostics of reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from pitui.core.format.jsonline import parse_line
from pitui.core.format.jsvalues import js_trim
from pitui.core.format.line_views import MessageFields


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something wrong with one line (1-based line number, byte offset) or with the tree."""

    line: int
    offset: int
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "tree"
        return f"{where}: {self.reason}"


def _internal(name: str, default: Any) -> Any:
    """A field that is not in the line: its JSON name is one no session line uses, so that
    decoding never fills it (a line that did use it would fail to decode and be parsed
    whole instead)."""
    return msgspec.field(default=default, name=f"\u2400pitui.{name}")


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def content_has_text(content: Any) -> bool:
    """Pi's hasTextContent: a string that is not blank, or a text block whose text is a
    string that is not blank (blank as JavaScript's trim() sees it)."""
    if isinstance(content, str):
        return bool(js_trim(content))
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str) and js_trim(text):
                    return True
    return False


class Entry(msgspec.Struct, gc=False, eq=False, kw_only=True):
    """An entry line: where it stands in the file, the fields the tree needs, and `raw`, the
    whole parsed JSON object (unknown fields included).

    Lines of current-format files are decoded straight into this struct by msgspec, which
    validates the whole line but builds only these fields. `raw` is read again from the file
    when first asked (most entries of a large session are never displayed), so memory stays
    small. Reading never writes: migrations only touch the in-memory `raw`.
    """

    type: str = "?"
    raw_id: str | None = msgspec.field(default=None, name="id")  # as written; None if absent
    parent_id: str | None = msgspec.field(default=None, name="parentId")
    timestamp: Any = None
    message_fields: MessageFields | None = msgspec.field(default=None, name="message")
    line: int = _internal("line", 0)
    offset: int = _internal("offset", 0)
    index: int = _internal("index", 0)
    source: Any = _internal("source", None)  # the LineSource `raw` is read again from
    _raw: Any = _internal("raw", None)
    _text: Any = _internal("text", None)  # whether an assistant message has text, once known
    # The entry's id; an entry without one gets a stand-in naming its line. Set with `line`
    # by whoever makes the entry (the reader, `from_raw`): the tree asks for it many times.
    id: str = _internal("id", "")

    @classmethod
    def from_raw(cls, raw: dict[str, Any], line: int, offset: int, index: int) -> Entry:
        """An entry from a JSON object parsed in full (kept as `raw`)."""
        message = raw.get("message")
        fields = None
        if isinstance(message, dict):
            fields = MessageFields(_text_or_none(message.get("role")), message.get("stopReason"))
        kind = raw.get("type")
        raw_id = _text_or_none(raw.get("id"))
        return cls(
            type=kind if isinstance(kind, str) else "?",
            raw_id=raw_id,
            parent_id=_text_or_none(raw.get("parentId")),
            timestamp=raw.get("timestamp"),
            message_fields=fields,
            line=line,
            offset=offset,
            index=index,
            _raw=raw,
            id=raw_id if raw_id is not None else f"line:{line}",
        )

    @property
    def role(self) -> str | None:
        fields = self.message_fields
        return None if fields is None else fields.role

    @property
    def stop_reason(self) -> Any:
        fields = self.message_fields
        return None if fields is None else fields.stopReason

    @property
    def has_text(self) -> bool | None:
        """Whether an assistant message has non-blank text (None for other entries)."""
        if self.role != "assistant":
            return None
        if self._text is None:
            self._text = content_has_text((self.message or {}).get("content"))
        return bool(self._text)

    @property
    def text_known(self) -> bool:
        return self._text is not None or self.role != "assistant"

    def set_text_flag(self, flag: bool) -> None:
        self._text = flag

    @property
    def raw_loaded(self) -> bool:
        return self._raw is not None

    @property
    def raw(self) -> dict[str, Any]:
        if self._raw is None:
            self._raw = self.read_raw()
        return self._raw

    def read_raw(self) -> dict[str, Any]:
        """`raw`, read again but not kept if it is not in memory yet: for what is worked
        out once from it (a row's text), as keeping every line would be most of a large
        session's memory."""
        if self._raw is not None:
            return self._raw
        try:
            return self.raw_of_line(self.source.read_line(self.offset))
        except OSError:
            return self.raw_of_line(b"")

    def set_raw_line(self, data: bytes) -> None:
        """Keep `raw_of_line(data)` as `raw`."""
        self._raw = self.raw_of_line(data)

    def raw_of_line(self, data: bytes) -> dict[str, Any]:
        """Parse `data`, this entry's line read again; a stand-in naming the problem if the
        bytes there are no longer this entry (the file was rewritten in place since)."""
        try:
            raw = parse_line(data)
        except ValueError:
            raw = None
        if isinstance(raw, dict) and self._is_read_from(raw):
            return raw
        return {
            "type": self.type,
            "id": self.raw_id,
            "parentId": self.parent_id,
            "timestamp": self.timestamp,
            "pitui": f"line {self.line} changed on disk after it was read; reopen the session",
        }

    def _is_read_from(self, raw: dict[str, Any]) -> bool:
        """Whether `raw` has this entry's id and type, as `from_raw` reads them (a missing or
        odd type is "?", an id that is not a string None)."""
        kind = raw.get("type")
        same_type = (kind if isinstance(kind, str) else "?") == self.type
        return same_type and _text_or_none(raw.get("id")) == self.raw_id

    @property
    def message(self) -> dict[str, Any] | None:
        value = self.raw.get("message")
        return value if isinstance(value, dict) else None

    def __repr__(self) -> str:
        return f"Entry({self.type} {self.id} parent={self.parent_id} line={self.line})"


decode_entry = msgspec.json.Decoder(Entry).decode
DecodeErrors = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
