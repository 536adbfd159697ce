"""What /tree search looks in for a message entry, read from its line without parsing all of
it: the role, the text blocks, the command. A large session's first search reads every line,
and a full parse builds the tool calls, thinking and usage it does not need."""

from __future__ import annotations

import msgspec

from pitui.core.format.jsvalues import js_string
from pitui.core.format.line_views import VIEW_ERRORS, MessageLine, SearchMessage, TextBlock
from pitui.core.rows.row_text import message_searchable_text
from pitui.core.session.entry import Entry

_decode = msgspec.json.Decoder(MessageLine[SearchMessage]).decode


def line_searchable_text(entry: Entry, line: bytes) -> str | None:
    """`searchable_text` of a message entry from its line; None when the line has another
    shape or is not this entry (the caller parses it whole)."""
    try:
        decoded = _decode(line)
    except VIEW_ERRORS:
        return None
    message = decoded.message
    if decoded.id != entry.raw_id or decoded.type != entry.type or message is None:
        return None
    return message_searchable_text(message.role, message.content, message.command, _text_of)


def _text_of(content: str | list[TextBlock]) -> str:
    """Pi's extractFullContent: the string, or its text blocks' texts joined."""
    if isinstance(content, str):
        return content
    return "".join(
        text if type(text := block.text) is str else js_string(text)
        for block in content
        if block.type == "text"
    )
