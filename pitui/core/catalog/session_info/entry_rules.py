"""`EntryRules`: Pi's `buildSessionInfo` rules, one entry at a time (the exact path).

Pi streams a file through `readline` (line ends `\\n`, `\\r\\n` or a lone `\\r`), skips blank
and unparsable lines, requires the first parsed (truthy) value to be a `session` header, and
drops the whole session where its JavaScript would throw a TypeError (a `message` entry without
`message`, non-array non-string content, a `null` content block, a non-string name). The
builder's persisted state (`builder.py`) covers complete lines only; a partial last line (no
`\\n`, maybe a write in progress) is applied to a throwaway copy by `summarize`, because Pi's
readline yields it as a line too. So the Pi keys match Pi exactly, and the state stays
resumable.

Every line can take this path; `fast_entries.py` decodes the common shapes faster and falls
back here for anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import msgspec

from pitui.core.catalog.session_info.capped import MESSAGE_TEXT_CAP, SESSION_TEXT_CAP
from pitui.core.catalog.session_info.js_numbers import is_number, js_add, js_sum
from pitui.core.format import jsvalues as js
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line

HEADER_KEYS = ("type", "id", "cwd", "timestamp", "parentSession", "version")
HUGE_LINE = MESSAGE_TEXT_CAP  # past this, a first line is read for its header keys alone
_decode_fields = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_NON_SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")


def _get(obj: Any, key: str) -> Any:
    return obj.get(key, js.UNDEFINED) if isinstance(obj, dict) else js.UNDEFINED


def split_lines(raw: bytes) -> list[bytes]:
    """Lines of one `\\n`-terminated chunk as readline splits them (a lone CR ends a line)."""
    raw = raw.removesuffix(b"\r")
    return raw.split(b"\r") if b"\r" in raw else [raw]


@dataclass
class EntryRules:
    """Running summary state and the rules that feed it; `texts` is the conversation text
    (tool output: see `tools.py`)."""

    header: dict[str, Any] | None = None
    entry_count: int = 0
    message_count: int = 0
    first_message: str = ""
    name: str | None = None
    last_activity: float | None = None
    malformed: int = 0
    rejected: str = ""
    leaves: set[str] = field(default_factory=set)
    parents: set[str] = field(default_factory=set)
    # the parents first named since the builder was made or resumed, in order: the index
    # stores a growing session's parents by these parts, not the whole set on each change
    added_parents: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    tokens: int | float = 0  # JavaScript numbers: exact ints up to 2**53, then doubles
    cost: float = 0.0
    texts: list[str] = field(default_factory=list)
    text_size: int = 0  # characters kept in `texts` (with a separator each)
    # -- feeding -----------------------------------------------------------------------------

    def feed_line(self, raw: bytes) -> None:
        """One line ending in `\\n` (without it)."""
        if self.rejected:
            return
        for part in split_lines(raw):
            try:
                self._line(part)
            except js.JsTypeError as error:
                self.rejected = str(error)
                return

    def _line(self, raw: bytes) -> None:
        entry = _huge_header(raw) if self.header is None and len(raw) > HUGE_LINE else None
        try:
            if entry is None:
                entry = parse_line(raw)
        except LineError:
            if _non_blank(raw):
                self.malformed += 1
            return
        if not js.js_truthy(entry):  # Pi keeps only truthy values
            return
        if self.header is None:
            if _get(entry, "type") != EntryType.SESSION:
                self.rejected = "not a session (first line is not a session header)"
            else:  # only what a summary reads of it (the index stores the header)
                self.header = {key: entry[key] for key in HEADER_KEYS if key in entry}
            return
        if isinstance(entry, dict):
            self._entry(entry)

    def _entry(self, entry: dict[str, Any]) -> None:
        self.entry_count += 1
        self._track_tree(entry)
        match entry.get("type"):  # what each entry type changes (`fast_entries` does it too)
            case EntryType.SESSION_INFO:
                self._name(entry.get("name", js.UNDEFINED))
            case EntryType.LABEL:
                self._label(entry)
            case EntryType.MODEL_CHANGE:
                self._model(entry.get("modelId"))
            case EntryType.MESSAGE:
                self._message(entry)

    def _track_tree(self, entry: dict[str, Any]) -> None:
        entry_id, parent = entry.get("id"), entry.get("parentId")
        if isinstance(parent, str) and parent != entry_id:
            if parent not in self.parents:
                self.parents.add(parent)
                self.added_parents.append(parent)
            self.leaves.discard(parent)
        if isinstance(entry_id, str) and entry_id not in self.parents:
            self.leaves.add(entry_id)

    def _name(self, name: Any) -> None:
        if name is None or name is js.UNDEFINED:
            self.name = None
        elif isinstance(name, str):
            self.name = js.js_trim(name) or None
        else:
            raise js.JsTypeError("session_info name is not a string")

    def _label(self, entry: dict[str, Any]) -> None:
        target, label = entry.get("targetId"), entry.get("label")
        if not isinstance(target, str):
            return
        if isinstance(label, str) and label:
            self.labels.pop(target, None)
            self.labels[target] = label
        else:
            self.labels.pop(target, None)

    def _model(self, model: Any) -> None:
        if isinstance(model, str) and model and model not in self.models:
            self.models.append(model)

    def _message(self, entry: dict[str, Any]) -> None:
        self.message_count += 1
        message = entry.get("message", js.UNDEFINED)
        if message is None or message is js.UNDEFINED:
            raise js.JsTypeError("message entry without a message")
        role = _get(message, "role")
        if not (isinstance(role, str) and "content" in message):
            return
        if role in ("user", "assistant"):
            self._activity(message.get("timestamp"), entry.get("timestamp", js.UNDEFINED))
            self._text(role, extract_text(message["content"]))
        if role == "assistant":
            self._usage(message.get("model"), message.get("usage"))

    def _activity(self, stamp: Any, entry_stamp: Any) -> None:
        if isinstance(stamp, int | float) and not isinstance(stamp, bool):
            moment: float | None = stamp
        else:
            moment = js.js_date_ms(entry_stamp)
        if moment is not None:
            self.last_activity = max(self.last_activity or 0, moment)

    def _text(self, role: str, text: str) -> None:
        """Keep a message's text, cut as `capped` says (per message, then per session)."""
        if not text:
            return
        text = text[:MESSAGE_TEXT_CAP]
        if not self.first_message and role == "user":
            self.first_message = text
        left = SESSION_TEXT_CAP - self.text_size
        if left > 0:
            self.texts.append(text[:left])
            self.text_size += min(len(text), left) + 1

    def _usage(self, model: Any, usage: Any) -> None:
        self._model(model)
        if not isinstance(usage, dict):
            return
        total = usage.get("totalTokens")
        if not is_number(total):
            parts = (usage.get(k) for k in ("input", "output", "cacheRead", "cacheWrite"))
            total = js_sum(p for p in parts if is_number(p))
        self.tokens = js_add(self.tokens, total)
        cost = usage.get("cost")
        cost_total = cost.get("total") if isinstance(cost, dict) else None
        if is_number(cost_total):
            self.cost = float(js_add(self.cost, cost_total))


def _huge_header(raw: bytes) -> dict[str, Any] | None:
    """A huge first line's header keys, decoding just those (never a copy of the line);
    None when msgspec cannot read the line as an object (the exact path decides)."""
    try:
        fields = _decode_fields(raw)
        return {key: parse_line(bytes(fields[key])) for key in HEADER_KEYS if key in fields}
    except (msgspec.DecodeError, msgspec.ValidationError, LineError, RecursionError):
        return None


def _non_blank(raw: bytes) -> bool:
    """Whether an unparsable line is more than whitespace (JavaScript's trim); a huge one is
    not decoded for this, only searched for a byte that is not ASCII whitespace."""
    if len(raw) > HUGE_LINE:
        return _NON_SPACE.search(raw) is not None
    return bool(js.js_trim(raw.decode("utf-8", "replace")))


def extract_text(content: Any) -> str:
    """Pi's `extractTextContent` (raises where JavaScript would throw)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise js.JsTypeError("message content is neither a string nor an array")
    if any(block is None for block in content):
        raise js.JsTypeError("null content block")
    texts = [_get(b, "text") for b in content if _get(b, "type") == "text"]
    return " ".join(js.js_join_item(t) for t in texts)
