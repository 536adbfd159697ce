"""`SessionSummary`: one session as Pi's listing sees it, plus what the picker wants beyond Pi."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

import msgspec

from pitui.core.catalog import lossless_json
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


def js_json_number(value: int | float) -> int | float | None:
    """A number as JSON.stringify writes it: null for Infinity and NaN, a whole double below
    1e21 without an exponent."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
    return value


def node_mtime_ms(mtime_ns: int) -> float:
    """Node's `stats.mtimeMs`, a double."""
    sec, nsec = divmod(mtime_ns, 1_000_000_000)
    return sec * 1e3 + nsec / 1e6


def _iso(ms: int | None) -> str | None:
    return None if ms is None else iso_ms(ms)


@functools.lru_cache(maxsize=4096)  # sessions share a few folders
def _folder_keys(cwd: str) -> tuple[str, str]:
    """The folder lowercased, and as a phrase is compared with it."""
    return cwd.lower(), normalize_ws_lower(cwd)


class SearchKeys(NamedTuple):
    name: str  # lowercased
    id: str  # as a string, lowercased
    cwd: str  # lowercased
    name_words: str  # lowercased, whitespace runs as one space, trimmed (for phrases)
    cwd_words: str


@dataclass(slots=True)
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
    total_tokens: int | float = 0  # JavaScript numbers (Infinity where JSON.parse gives it)
    total_cost: float = 0.0
    malformed_lines: int = 0
    writing_in_progress: bool = False
    newer_format: bool = False  # the header names a version above the one pitui writes
    size: int = 0
    mtime_ns: int = 0
    problem: str | None = None  # why the summary holds only what could be read
    store: str = "local"  # "archive": in pitui's archive (set by the catalog, not indexed)
    remote_path: str | None = None  # a mirrored session's path on its remote (as `store`)
    text_loaded: bool = field(default=True, repr=False, compare=False)  # see `from_record`
    _lower: str | None = field(default=None, repr=False, compare=False)
    _normalized: str | None = field(default=None, repr=False, compare=False)
    _keys: SearchKeys | None = field(default=None, repr=False, compare=False)
    _times: tuple[float, float] | None = field(default=None, repr=False, compare=False)

    @property
    def created(self) -> str | None:
        return _iso(self.created_ms)

    @property
    def modified(self) -> str | None:
        return _iso(self.modified_ms)

    @property
    def lower_text(self) -> str:
        """Lowercased `allMessagesText`, computed once (Pi's picker caches it the same way)."""
        if self._lower is None:
            self._lower = self.all_messages_text.lower()
        return self._lower

    @property
    def search_keys(self) -> SearchKeys:
        """The name, id and cwd as the picker's search compares them (computed once)."""
        if self._keys is None:
            name = self.name or ""
            cwd, cwd_words = _folder_keys(self.cwd)
            name_words = normalize_ws_lower(name) if name else ""
            self._keys = SearchKeys(name.lower(), str(self.id).lower(), cwd, name_words, cwd_words)
        return self._keys

    @property
    def order_times(self) -> tuple[float, float]:
        """Pi's sort keys: `modified` (-inf for an Invalid Date) and the file's mtime as
        Node's `mtimeMs` (computed once: the picker orders every session again on each change
        while pi writes, and computing them took a third of that at 20,000 sessions)."""
        if self._times is None:
            modified = self.modified_ms if self.modified_ms is not None else -math.inf
            self._times = (modified, node_mtime_ms(self.mtime_ns))
        return self._times

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
        out = {
            **self.pi_json(),
            "entryCount": self.entry_count,
            "branchCount": self.branch_count,
            "labels": list(self.labels),
            "models": list(self.models),
            "totalTokens": js_json_number(self.total_tokens),
            "totalCost": js_json_number(self.total_cost),
            "malformedLines": self.malformed_lines,
            "writingInProgress": self.writing_in_progress,
            "newerFormat": self.newer_format,
            "store": self.store,
        }
        if self.remote_path is not None:
            out["remotePath"] = self.remote_path
        return out

    def to_record(self) -> dict[str, Any]:
        """Everything but the message text (stored apart in the index, unless it holds a lone
        surrogate, which SQLite's text cannot: then here too)."""
        record = {name: getattr(self, name) for name in _RECORD_FIELDS}
        record["total_tokens"] = lossless_json.js_number(self.total_tokens)
        record["total_cost"] = lossless_json.js_number(self.total_cost)
        if lossless_json.has_surrogates(self.all_messages_text):
            record["all_messages_text"] = self.all_messages_text
        return record

    def stored_record(self) -> bytes:
        """`to_record()` as the index stores it: MessagePack, which decodes in under half
        JSON's time (a listing decodes every session's); JSON for what MessagePack cannot
        carry (integers beyond 64 bits, lone surrogates)."""
        if not lossless_json.has_surrogates(self.all_messages_text):
            record = {
                name: getattr(self, name) if stored else default
                for name, stored, default in _PACKED_FIELDS
            }
            try:
                return _encode_packed(record)
            except (OverflowError, UnicodeEncodeError):
                pass
        return lossless_json.dumps(self.to_record())

    @classmethod
    def from_record(cls, record: bytes, text: str | None) -> SessionSummary:
        """The summary `stored_record()` stored, with its message text (None: not read yet,
        `text_loaded` False: a listing without a search never needs it)."""
        if not record.startswith(b"{"):  # a JSON record is an object, MessagePack's a map
            summary = _decode_packed(record)
        else:
            try:
                summary = _decode_record(record)
            except msgspec.DecodeError:  # values orjson cannot carry (see `lossless_json`)
                fields_ = lossless_json.loads(record)
                text = fields_.pop("all_messages_text", text)
                for key in ("total_tokens", "total_cost"):
                    fields_[key] = lossless_json.from_js_number(fields_.get(key))
                summary = msgspec.convert(fields_, cls)
        summary.all_messages_text = text or ""
        summary.text_loaded = text is not None
        return summary


_decode_record = msgspec.json.Decoder(SessionSummary).decode
_decode_packed = msgspec.msgpack.Decoder(SessionSummary).decode
_encode_packed = msgspec.msgpack.Encoder().encode
_RECORD_FIELDS = tuple(
    f.name
    for f in fields(SessionSummary)
    if f.name
    not in (
        "all_messages_text",
        "_lower",
        "_normalized",
        "_keys",
        "_times",
        "text_loaded",
        "store",
        "remote_path",
    )
)
# every field in a packed record, in order, those not stored at their defaults: msgspec
# decodes a field faster than it fills a missing one (10,000 records: 0.024 s, not 0.041 s)
_PACKED_FIELDS = tuple(
    (f.name, f.name in _RECORD_FIELDS, f.default) for f in fields(SessionSummary)
)
