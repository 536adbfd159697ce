"""`SummaryBuilder`: Pi's `buildSessionInfo`, fed line by line and resumable from a byte offset.

Pi streams a file through `readline` (line ends `\\n`, `\\r\\n` or a lone `\\r`), skips blank
and unparsable lines, requires the first parsed (truthy) value to be a `session` header, and
drops the whole session where its JavaScript would throw a TypeError (a `message` entry without
`message`, non-array non-string content, a `null` content block, a non-string name). The
builder's persisted state covers complete lines only; a partial last line (no `\\n`, maybe a
write in progress) is applied to a throwaway copy by :meth:`summarize`, because Pi's readline
yields it as a line too. So the Pi keys match Pi exactly, and the state stays resumable.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

import msgspec

from pitui.core.catalog import blobs, capped
from pitui.core.catalog.capped import MESSAGE_TEXT_CAP, SESSION_TEXT_CAP
from pitui.core.catalog.summary import SessionSummary
from pitui.core.format import jsvalues as js
from pitui.core.format.jsonline import LineError, parse_line

STATE_KEYS = (
    *("header", "entry_count", "message_count", "first_message", "name", "last_activity"),
    *("malformed", "rejected", "leaves", "parents", "labels", "models", "tokens", "cost"),
)


def _falsy(value: Any) -> bool:
    if value is None or value is False or value == "":
        return True
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


def _get(obj: Any, key: str) -> Any:
    return obj.get(key, js.UNDEFINED) if isinstance(obj, dict) else js.UNDEFINED


def split_lines(raw: bytes) -> list[bytes]:
    """Lines of one `\\n`-terminated chunk as readline splits them (a lone CR ends a line)."""
    raw = raw.removesuffix(b"\r")
    return raw.split(b"\r") if b"\r" in raw else [raw]


@dataclass
class SummaryBuilder:
    """Running summary state; `texts` is the conversation text (tool output: see `tools.py`)."""

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
    labels: dict[str, str] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    tokens: int | float = 0  # JavaScript numbers: exact ints up to 2**53, then doubles
    cost: float = 0.0
    texts: list[str] = field(default_factory=list)
    resumed_texts: int = 0
    text_size: int = 0  # characters kept in `texts` (with a separator each)

    @property
    def new_texts(self) -> list[str]:
        """Conversation texts fed since the builder was created or resumed."""
        return self.texts[self.resumed_texts :]

    # -- persistence -------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        out = {key: getattr(self, key) for key in STATE_KEYS}
        out["leaves"], out["parents"] = sorted(self.leaves), sorted(self.parents)
        out["tokens"], out["cost"] = blobs.js_number(self.tokens), blobs.js_number(self.cost)
        if self.last_activity is not None:
            out["last_activity"] = blobs.js_number(self.last_activity)
        text = " ".join(self.texts)
        if blobs.has_surrogates(text):  # SQLite's text column holds it without them
            out["text"] = text
        return out

    @classmethod
    def from_state(cls, state: dict[str, Any], text: str = "") -> SummaryBuilder:
        builder = cls(**{k: state[k] for k in STATE_KEYS if k in state})
        builder.leaves, builder.parents = set(builder.leaves), set(builder.parents)
        builder.tokens = blobs.from_js_number(builder.tokens)
        builder.cost = float(blobs.from_js_number(builder.cost))
        if builder.last_activity is not None:
            builder.last_activity = blobs.from_js_number(builder.last_activity)
        text = state.get("text", text)
        builder.texts = [text] if text else []
        builder.text_size = len(text) + 1 if text else 0
        builder.resumed_texts = len(builder.texts)
        return builder

    @property
    def is_session(self) -> bool:
        return self.header is not None and not self.rejected

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
        if _falsy(entry):
            return
        if self.header is None:
            if _get(entry, "type") != "session":
                self.rejected = "not a session (first line is not a session header)"
            else:  # only what a summary reads of it (the index stores the header)
                self.header = {key: entry[key] for key in HEADER_KEYS if key in entry}
            return
        if isinstance(entry, dict):
            self._entry(entry)

    def _entry(self, entry: dict[str, Any]) -> None:
        self.entry_count += 1
        self._track_tree(entry)
        kind = entry.get("type")
        if kind == "session_info":
            self._name(entry.get("name", js.UNDEFINED))
        elif kind == "label":
            self._label(entry)
        elif kind == "model_change":
            self._model(entry.get("modelId"))
        elif kind == "message":
            self._message(entry)

    def _track_tree(self, entry: dict[str, Any]) -> None:
        entry_id, parent = entry.get("id"), entry.get("parentId")
        if isinstance(parent, str) and parent != entry_id:
            self.parents.add(parent)
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
        if not _is_number(total):
            parts = (usage.get(k) for k in ("input", "output", "cacheRead", "cacheWrite"))
            total = _js_sum(p for p in parts if _is_number(p))
        self.tokens = _js_add(self.tokens, total)
        cost = usage.get("cost")
        cost_total = cost.get("total") if isinstance(cost, dict) else None
        if _is_number(cost_total):
            self.cost = float(_js_add(self.cost, cost_total))

    # -- fast path ---------------------------------------------------------------------------

    def feed_lines(self, lines: list[bytes]) -> None:
        """`feed_line` for each line; the common entry shapes decode straight into structs.

        A line the typed decoder refuses (or that `_fast_entry` declines) takes the exact path,
        so the result is the same as feeding each line to `feed_line`.
        """
        decode, fast, errors = _decode_entry, self._fast_entry, _FAST_ERRORS
        for raw in lines:
            if self.header is None or self.rejected or b"\r" in raw:
                self.feed_line(raw)
                continue
            try:
                if fast(decode(raw)):
                    continue
            except errors:
                pass
            except js.JsTypeError as error:
                self.rejected = str(error)
                continue
            self.feed_line(raw)

    def _fast_entry(self, e: _Entry) -> bool:
        """`_entry` on a msgspec-decoded line; False (nothing changed) to take the exact path.

        The structs only accept what reads the same as `parse_line`'s dicts (numbers in int64
        or float range, timestamps that are not arrays/objects, content a string or an array of
        objects); `_fast_entry` declines a text block whose `text` is not a string.
        """
        kind = e.type
        if kind == "message":
            message = e.message
            if message is None or message is UNSET:
                return False
            role = message.role
            text = ""
            if role == "user" or role == "assistant":
                content = message.content
                if content is UNSET:
                    role = None
                else:
                    if len(content) > MESSAGE_TEXT_CAP:  # never decode all of a huge text
                        try:
                            text = capped.text_blocks(content)
                        except capped.Declined:
                            return False
                    else:
                        blocks = _decode_content(content)
                        if type(blocks) is str:
                            text = blocks
                        else:
                            parts = [b.text for b in blocks if b.type == "text"]
                            for part in parts:
                                if type(part) is not str:
                                    return False
                            text = " ".join(parts)
        self.entry_count += 1
        entry_id, parent = e.id, e.parentId
        if type(parent) is str and parent != entry_id:
            self.parents.add(parent)
            self.leaves.discard(parent)
        if type(entry_id) is str and entry_id not in self.parents:
            self.leaves.add(entry_id)
        if kind == "message":
            self.message_count += 1
            if role == "user" or role == "assistant":
                stamp = message.timestamp
                if type(stamp) is int or type(stamp) is float:
                    moment: float | None = stamp
                else:
                    stamp = e.timestamp
                    moment = js.js_date_ms(js.UNDEFINED if stamp is UNSET else stamp)
                if moment is not None:
                    self.last_activity = max(self.last_activity or 0, moment)
                if text:
                    size = self.text_size + len(text) + 1
                    if size <= SESSION_TEXT_CAP and len(text) <= MESSAGE_TEXT_CAP:
                        self.texts.append(text)  # `_text`, inlined for the common case
                        self.text_size = size
                        if not self.first_message and role == "user":
                            self.first_message = text
                    else:
                        self._text(role, text)
                if role == "assistant":
                    self._model(message.model)
                    usage = message.usage
                    if usage is not None and usage is not UNSET:
                        self._fast_usage(usage)
        elif kind == "session_info":
            self._name(js.UNDEFINED if e.name is UNSET else e.name)
        elif kind == "label":
            target, label = e.targetId, e.label
            if type(target) is str:
                self.labels.pop(target, None)
                if type(label) is str and label:
                    self.labels[target] = label
        elif kind == "model_change":
            self._model(e.modelId)
        return True

    def _fast_usage(self, usage: _Usage) -> None:
        total = usage.totalTokens
        if not _is_number(total):
            parts = (usage.input, usage.output, usage.cacheRead, usage.cacheWrite)
            total = _js_sum(p for p in parts if _is_number(p))
        tokens = self.tokens
        if type(total) is int and type(tokens) is int and -SAFE_INT <= total + tokens <= SAFE_INT:
            self.tokens = tokens + total  # the common case of `_js_add`
        else:
            self.tokens = _js_add(tokens, total)
        cost = usage.cost
        if cost is not None and cost is not UNSET:
            value = cost.total
            if type(value) is float:
                self.cost += value
            elif type(value) is int:
                self.cost = float(_js_add(self.cost, value))

    # -- result ------------------------------------------------------------------------------

    def summarize(
        self, path: str, size: int, mtime_ns: int, tail: bytes = b""
    ) -> SessionSummary | None:
        """What Pi would list for these bytes (tail = a last line without newline), or None."""
        builder = self
        if tail and not self.rejected:
            builder = copy.copy(self)
            builder.texts = list(self.texts)
            builder.leaves, builder.parents = set(self.leaves), set(self.parents)
            builder.labels, builder.models = dict(self.labels), list(self.models)
            builder.feed_lines([tail])
        if not builder.is_session:
            return None
        summary = builder._summary(path, mtime_ns)
        summary.size, summary.writing_in_progress = size, bool(tail)
        return summary

    def _summary(self, path: str, mtime_ns: int) -> SessionSummary:
        header = self.header or {}
        cwd = header.get("cwd")
        stamp = header.get("timestamp", js.UNDEFINED)
        header_ms = js.js_date_ms(stamp) if isinstance(stamp, str) else None
        if self.last_activity is not None and self.last_activity > 0:
            modified = js.valid_time(self.last_activity)
        elif header_ms is not None:
            modified = js.valid_time(header_ms)
        else:
            modified = node_mtime_ms(mtime_ns)
        return SessionSummary(
            path=path,
            id=header.get("id"),
            cwd=cwd if isinstance(cwd, str) else "",
            name=self.name,
            parent_session_path=header.get("parentSession"),
            created_ms=js.valid_time(js.js_date_ms(stamp)),
            modified_ms=modified,
            message_count=self.message_count,
            first_message=self.first_message or "(no messages)",
            all_messages_text=" ".join(self.texts),
            entry_count=self.entry_count,
            branch_count=len(self.leaves),
            labels=tuple(self.labels.values()),
            models=tuple(self.models),
            total_tokens=self.tokens,
            total_cost=round(self.cost, 10),
            malformed_lines=self.malformed,
            mtime_ns=mtime_ns,
        )


UNSET = msgspec.UNSET
SAFE_INT = 2**53 - 1
_FAST_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
# A JSON number as `parse_line` reads it (orjson: a float outside int64/uint64; the struct
# path declines all ints past int64 to stay simple), or a string, boolean or null.
_Int64 = Annotated[int, msgspec.Meta(ge=-(1 << 63), le=(1 << 63) - 1)]
_Scalar = _Int64 | float | str | bool | None


class _Cost(msgspec.Struct, gc=False):
    total: _Scalar = UNSET


class _Usage(msgspec.Struct, gc=False):
    totalTokens: _Scalar = UNSET
    input: _Scalar = UNSET
    output: _Scalar = UNSET
    cacheRead: _Scalar = UNSET
    cacheWrite: _Scalar = UNSET
    cost: _Cost | None = UNSET


class _Message(msgspec.Struct, gc=False):
    role: Any = UNSET
    content: msgspec.Raw = UNSET  # decoded only for user and assistant messages
    timestamp: _Scalar = UNSET
    model: Any = UNSET
    usage: _Usage | None = UNSET


class _Entry(msgspec.Struct, gc=False):
    type: Any = UNSET
    id: Any = UNSET
    parentId: Any = UNSET
    timestamp: _Scalar = UNSET
    message: _Message | None = UNSET
    name: Any = UNSET
    targetId: Any = UNSET
    label: Any = UNSET
    modelId: Any = UNSET


class _Block(msgspec.Struct, gc=False):
    type: Any = UNSET
    text: Any = UNSET


_decode_entry = msgspec.json.Decoder(_Entry).decode
_decode_content = msgspec.json.Decoder(str | list[_Block]).decode


HEADER_KEYS = ("type", "id", "cwd", "timestamp", "parentSession", "version")
HUGE_LINE = MESSAGE_TEXT_CAP  # past this, a first line is read for its header keys alone
_decode_fields = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_NON_SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")


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


def _is_number(value: Any) -> bool:
    return type(value) is int or type(value) is float


def _js_double(value: int | float) -> int | float:
    """A JSON number as JavaScript holds it: an int while it is exact in a double, else the
    double (an integer past the largest double is Infinity, as JSON.parse makes it)."""
    if type(value) is int and not -SAFE_INT <= value <= SAFE_INT:
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    return value


def _js_add(a: int | float, b: int | float) -> int | float:
    """`a + b` on JavaScript numbers (never an exception: Infinity - Infinity is NaN)."""
    return _js_double(_js_double(a) + _js_double(b))


def _js_sum(values: Any) -> int | float:
    total: int | float = 0
    for value in values:
        total = _js_add(total, value)
    return total


def node_mtime_ms(mtime_ns: int) -> int:
    """`stats.mtime` as Node builds it: `Math.round(sec * 1e3 + nsec / 1e6)` in doubles."""
    sec, nsec = divmod(mtime_ns, 1_000_000_000)
    return math.floor(sec * 1e3 + nsec / 1e6 + 0.5)


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
