"""Every row's text at once, from one read of the session file: what `pitui tree` prints.

A row's text (`Row.display`) is otherwise worked out when the row is first shown, from its
line read again and parsed whole, after every assistant line was read once for its text
flag and tool calls. Printing every row that way reads most lines twice, one system call
each, and parses all of them. Here each line is read once, in file order a window at a time,
and a message line is decoded only as far as its row needs: a user's or an assistant's text
blocks and tool calls, a tool result's call id (its content, most of a session's bytes, is
skipped). Other entries, and lines of an unusual shape, take the usual path: the whole line
parsed, as `JSON.parse` would, and `entry_display`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import JS_SPACE, js_string
from pitui.core.format.line_views import (
    VIEW_ERRORS,
    MessageLine,
    RowContent,
    RowMessage,
    ToolResultMessage,
    UserOrAssistantMessage,
)
from pitui.core.rows.order import walk
from pitui.core.rows.row_entry import decode_content, decode_row_entry
from pitui.core.rows.row_text import (
    Display,
    ToolCall,
    assistant_display,
    entry_display,
    message_tool_calls,
    tool_result_display,
    user_display,
)
from pitui.core.rows.safe_text import one_line
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.entry import Entry, content_has_text
from pitui.core.session.prefetch import each_line
from pitui.core.session.tree import SessionTree

_decode_user_or_assistant = msgspec.json.Decoder(MessageLine[UserOrAssistantMessage]).decode
_decode_tool_result = msgspec.json.Decoder(MessageLine[ToolResultMessage]).decode
_DECODERS: dict[str | None, Callable[[bytes | memoryview], Any]] = {
    "user": _decode_user_or_assistant,
    "assistant": _decode_user_or_assistant,
    "toolResult": _decode_tool_result,
}
_PENDING: Display = ("", "", "", "")  # a tool result's: known once every call is known
# A tool result, shown once every call is known: (entry, its JSON if parsed whole, else
# its call id and toolName).
_Pending = tuple[Entry, dict[str, Any] | None, Any, Any]


class RowTexts:
    """Every row's text, each line read once: taken from its bytes as the session loads
    (`take`, the reader's line hook), or read again after (`finish`) for the lines it could
    not take (other kinds, parsed whole, unusual shapes)."""

    # The reader's decoder for `take`: one decode of each line serves the tree and the row.
    decode = staticmethod(decode_row_entry)

    def __init__(self) -> None:
        self._start_again()

    def _start_again(self) -> None:
        """Nothing taken (at first, when the file is read again from the start, and once
        `finish` has taken it all)."""
        self._texts: list[Display | None] = []  # by entry index; None: not taken
        self._pending: list[_Pending] = []  # tool results taken
        self._found: list[tuple[Entry, list[ToolCall]]] = []  # assistants taken, in file order

    def take(self, entry: Entry, line: bytes | memoryview) -> None:
        """Work out what the row of a user, assistant or tool result line needs."""
        texts = self._texts
        if entry.index != len(texts):
            texts = self._skip_to(entry.index)
        fields = entry.message_fields
        if type(fields) is not RowMessage:  # not decoded by `decode`: the line is read
            self._add(entry, *_taken(entry, line))
            return
        raw, fields.content = fields.content, None  # a view into the reader's buffer
        role = fields.role
        if entry.type != "message":  # a bare string, not EntryType (~80 ns a time): per line
            texts.append(None)
        elif role == "toolResult":
            call_id = fields.toolCallId
            if call_id is None or type(call_id) is str:
                texts.append(_PENDING)
                self._pending.append((entry, None, call_id, fields.toolName))
            else:
                texts.append(None)  # a number as a call id: kept as JSON.parse reads it
        elif role == "user" or role == "assistant":
            try:
                content = None if raw is None else decode_content(raw)
            except VIEW_ERRORS:
                texts.append(None)  # an unusual shape: parsed whole
                return
            if role == "user":
                _, _, body, _ = user_display(_text(content))
                texts.append(("user: ", "user", one_line(body), ""))
                return
            text, found = _assistant_facts(entry, content)
            tag, style, body, body_style = assistant_display(
                text, fields.stopReason, fields.errorMessage
            )
            texts.append((tag, style, one_line(body), body_style))
            self._found.append((entry, found))
        else:
            texts.append(None)

    def _skip_to(self, index: int) -> list[Display | None]:
        """Entries before `index` were not heard (parsed whole): none taken."""
        texts = self._texts
        if index < len(texts):  # the file is being read again from the start
            self._start_again()
            texts = self._texts
        texts.extend([None] * (index - len(texts)))
        return texts

    def _add(
        self,
        entry: Entry,
        text: Display | None,
        result: _Pending | None,
        found: list[ToolCall] | None,
    ) -> None:
        self._texts.append(text)
        if result is not None:
            self._pending.append(result)
        elif found is not None:
            self._found.append((entry, found))

    def finish(self, tree: SessionTree, calls: ToolCallMap) -> list[Display | None]:
        """Each entry's row text (tag, tag style, body, body style; controls made visible),
        by entry index; every assistant entry's text flag is set and its tool calls are
        added to `calls` (settled in Pi's walking order where call ids repeat)."""
        entries = tree.entries
        texts, pending, found = self._texts, self._pending, self._found
        self._start_again()
        if len(texts) > len(entries) or (entries and entries[-1].index != len(entries) - 1):
            texts, pending, found = [], [], []  # not the entries that were taken
        texts.extend([None] * (len(entries) - len(texts)))
        unread = [entry for entry, text in zip(entries, texts, strict=True) if text is None]
        taken = len(found)  # fast-path entries, heard in file order
        for entry, line in each_line(unread):
            self._read(entry, line, texts, found, pending, calls)
        _add_calls(tree, calls, found, in_file_order=len(found) == taken)
        shown = calls.texts
        for entry, raw, call_id, name in pending:
            if raw is not None:
                display = _safe(entry_display(entry, raw, lambda: shown))
            elif call_id and (call := shown.get(call_id)) is not None:  # a string or None
                display = ("", "", one_line(call), "muted")  # tool_result_display's
            else:
                _, _, body, style = tool_result_display(call_id, name, shown)
                display = ("", "", one_line(body), style)
            texts[entry.index] = display
        return texts

    def _read(
        self,
        entry: Entry,
        line: bytes | None,
        texts: list[Display | None],
        found: list[tuple[Entry, list[ToolCall]]],
        pending: list[_Pending],
        calls: ToolCallMap,
    ) -> None:
        """A line not taken while loading: taken now, or parsed whole."""
        role = entry.role if entry.type == EntryType.MESSAGE else None
        if line is not None:
            text, result, calls_made = _taken(entry, line)
            if text is not None:
                texts[entry.index] = text
                if result is not None:
                    pending.append(result)
                elif calls_made is not None:
                    found.append((entry, calls_made))
                return
        raw = entry.read_raw() if line is None else entry.raw_of_line(line)
        if role == "toolResult":
            texts[entry.index] = _PENDING
            pending.append((entry, raw, None, None))
            return
        if role == "assistant":
            message = raw.get("message")
            message = message if isinstance(message, dict) else {}
            entry.set_text_flag(content_has_text(message.get("content")))
            found.append((entry, message_tool_calls(message)))
        texts[entry.index] = _safe(entry_display(entry, raw, lambda: calls.texts))


def read_all_texts(tree: SessionTree, calls: ToolCallMap) -> list[Display | None]:
    """`RowTexts().finish(tree, calls)`: every row's text, each line read once now."""
    return RowTexts().finish(tree, calls)


def _add_calls(
    tree: SessionTree,
    calls: ToolCallMap,
    found: list[tuple[Entry, list[ToolCall]]],
    in_file_order: bool = False,
) -> None:
    """Add the tool calls of each assistant node, in the order reading its lines again
    would (`each_line`: entries in memory first, then file order), then settle repeats.
    `in_file_order`: `found` holds only entries taken as they loaded, that order."""
    by_id = tree.by_id
    if not in_file_order:
        found = _reading_order(found)
    add = calls.add
    for entry, calls_made in found:
        if calls_made and by_id.get(entry.id) is entry:  # else no node (a later line's id)
            add(entry, calls_made)
    if calls.has_repeats:
        calls.settle(walk(tree))


def _reading_order(
    found: list[tuple[Entry, list[ToolCall]]],
) -> list[tuple[Entry, list[ToolCall]]]:
    """`each_line`'s order: entries whose JSON is in memory first, then file order."""
    if any(e.raw_loaded or e.source is None for e, _ in found):
        first = sorted((f for f in found if f[0].raw_loaded or f[0].source is None), key=_index)
        rest = [f for f in found if not (f[0].raw_loaded or f[0].source is None)]
        return first + sorted(rest, key=_offset)
    if any(found[i][0].offset > found[i + 1][0].offset for i in range(len(found) - 1)):
        return sorted(found, key=_offset)
    return found


def _taken(
    entry: Entry, line: bytes | memoryview
) -> tuple[Display | None, _Pending | None, list[ToolCall] | None]:
    """What the row of a user, assistant or tool result line needs: its text (None if the
    line must be parsed whole, `_PENDING` for a tool result), a tool result's call, an
    assistant's tool calls (its text flag set)."""
    role = entry.role
    message = _light(entry, line, role)
    if message is None:
        return None, None, None
    if role == "toolResult":
        return _PENDING, (entry, None, message.toolCallId, message.toolName), None
    if role == "user":
        _, _, body, _ = user_display(_text(message.content))
        return ("user: ", "user", one_line(body), ""), None, None
    text, found = _assistant_facts(entry, message.content)
    tag, style, body, body_style = assistant_display(text, message.stopReason, message.errorMessage)
    return (tag, style, one_line(body), body_style), None, found


def _offset(found: tuple[Entry, list[ToolCall]]) -> int:
    return found[0].offset


def _index(found: tuple[Entry, list[ToolCall]]) -> int:
    return found[0].index


def _light(entry: Entry, line: bytes | memoryview, role: str | None) -> Any:
    """The message of a user, assistant or tool result line, decoded only as far as its row
    needs; None when the line must be parsed whole (another kind, in memory already, an
    unusual shape, or not this entry's line any more)."""
    decode = _DECODERS.get(role)
    if decode is None:
        return None
    try:
        decoded = decode(line)
    except VIEW_ERRORS:
        return None
    message = decoded.message
    if message is None or message.role != role or decoded.id != entry.raw_id:
        return None
    if decoded.type != EntryType.MESSAGE:
        return None
    if role == "toolResult" and not (message.toolCallId is None or type(message.toolCallId) is str):
        return None  # a number as a call id: kept as JSON.parse reads it, by the whole parse
    return message


def _text(content: RowContent) -> str:
    """Pi's extractFullContent: a string, or its text blocks' texts, each as String()."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(
        [b.text if type(b.text) is str else js_string(b.text) for b in content if b.type == "text"]
    )


def _assistant_facts(entry: Entry, content: RowContent) -> tuple[str, list[ToolCall]]:
    """An assistant message's text (Pi's extractFullContent) and tool calls; its text flag
    (Pi's hasTextContent: some text block's text is a string not blank) set."""
    if content is None or isinstance(content, str):
        entry.set_text_flag(content is not None and bool(content.strip(JS_SPACE)))
        return content or "", []
    texts: list[str] = []
    found: list[ToolCall] = []
    has_text = False
    for block in content:
        kind = block.type
        if kind == "text":
            text = block.text
            if type(text) is str:
                has_text = has_text or bool(text.strip(JS_SPACE))
                texts.append(text)
            else:
                texts.append(js_string(text))
        elif kind == "toolCall":
            found.append((block.id, block.name, block.arguments))
    entry.set_text_flag(has_text)
    return "".join(texts), found


def _safe(display: Display) -> Display:
    tag, tag_style, body, body_style = display
    return one_line(tag), tag_style, one_line(body), body_style
