"""`FastEntries`: the common entry shapes decoded straight into msgspec structs.

Most lines of a session are messages of a few known shapes; decoding them into typed structs
(and the content only for user and assistant messages) is several times faster than building
dicts. Anything the structs refuse, or `_fast_entry` declines, takes the exact path of
`EntryRules`, so the result is the same line for line.
"""

from __future__ import annotations

import msgspec

from pitui.core.catalog.session_info import capped
from pitui.core.catalog.session_info.capped import MESSAGE_TEXT_CAP, SESSION_TEXT_CAP
from pitui.core.catalog.session_info.entry_rules import EntryRules
from pitui.core.catalog.session_info.js_numbers import SAFE_INT, is_number, js_add, js_sum
from pitui.core.format import jsvalues as js
from pitui.core.format.line_views import ListingLine, ListingMessage, ListingUsage, TextBlock


class FastEntries(EntryRules):
    """`EntryRules` plus `feed_lines`, the fast way to feed many complete lines."""

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

    def _fast_entry(self, e: ListingLine) -> bool:
        """`_entry` on a msgspec-decoded line; False (nothing changed) to take the exact path.

        The structs only accept what reads the same as `parse_line`'s dicts (numbers in int64
        or float range, timestamps that are not arrays/objects, content a string or an array of
        objects); a text block whose `text` is not a string is declined.
        """
        kind = e.type  # bare strings, not EntryType: reaching EntryType.X costs ~80 ns on 3.11
        if kind == "message":
            return self._fast_message(e)
        self._tree_entry(e.id, e.parentId)
        if kind == "session_info":
            self._name(js.UNDEFINED if e.name is UNSET else e.name)
        elif kind == "label":
            self._fast_label(e.targetId, e.label)
        elif kind == "model_change":
            self._model(e.modelId)
        return True

    def _fast_message(self, e: ListingLine) -> bool:
        message = e.message
        if message is None or message is UNSET:
            return False
        role = message.role
        said = (role == "user" or role == "assistant") and message.content is not UNSET
        text = _content_text(message.content) if said else ""
        if text is None:
            return False
        self._tree_entry(e.id, e.parentId)
        self.message_count += 1
        if said:
            self._said(e, message, role, text)
        return True

    def _tree_entry(self, entry_id: object, parent: object) -> None:
        """Count the entry, and keep the tree's parents and leaves."""
        self.entry_count += 1
        if type(parent) is str and parent != entry_id:
            if parent not in self.parents:
                self.parents.add(parent)
                self.added_parents.append(parent)
            self.leaves.discard(parent)
        if type(entry_id) is str and entry_id not in self.parents:
            self.leaves.add(entry_id)

    def _said(self, e: ListingLine, message: ListingMessage, role: str, text: str) -> None:
        """A user or assistant message: its time, its text, and an assistant's model and usage."""
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

    def _fast_label(self, target: object, label: object) -> None:
        if type(target) is str:
            self.labels.pop(target, None)
            if type(label) is str and label:
                self.labels[target] = label

    def _fast_usage(self, usage: ListingUsage) -> None:
        total = usage.totalTokens
        if not is_number(total):
            parts = (usage.input, usage.output, usage.cacheRead, usage.cacheWrite)
            total = js_sum(p for p in parts if is_number(p))
        tokens = self.tokens
        if type(total) is int and type(tokens) is int and -SAFE_INT <= total + tokens <= SAFE_INT:
            self.tokens = tokens + total  # the common case of `js_add`
        else:
            self.tokens = js_add(tokens, total)
        cost = usage.cost
        if cost is not None and cost is not UNSET:
            value = cost.total
            if type(value) is float:
                self.cost += value
            elif type(value) is int:
                self.cost = float(js_add(self.cost, value))


UNSET = msgspec.UNSET
_FAST_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_decode_entry = msgspec.json.Decoder(ListingLine).decode
_decode_content = msgspec.json.Decoder(str | list[TextBlock]).decode


def _content_text(content: msgspec.Raw) -> str | None:
    """A message's text blocks joined by spaces (a string content as it is); None to take the
    exact path (a block's `text` that is not a string, or a huge text `capped` declines)."""
    if len(content) > MESSAGE_TEXT_CAP:  # never decode all of a huge text
        try:
            return capped.text_blocks(content)
        except capped.Declined:
            return None
    blocks = _decode_content(content)
    if type(blocks) is str:
        return blocks
    parts = [b.text for b in blocks if b.type == "text"]
    for part in parts:
        if type(part) is not str:
            return None
    return " ".join(parts)
