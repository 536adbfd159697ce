"""An entry decoded with what its row needs of its message, in the reader's one decode of
its line; and a line hook that sets assistants' text flags from it as the session loads.

The message's `content` is kept as a view into the reader's buffer (`msgspec.Raw`): valid
only while a line hook hears the entry, which decodes it if the row needs it (a user's or an
assistant's) and drops it. A tool result's content, most of a session's bytes, is never
copied.
"""

from __future__ import annotations

import msgspec

from pitui.core.format.jsvalues import JS_SPACE
from pitui.core.format.line_views import VIEW_ERRORS, RowBlock, RowContent, RowMessage
from pitui.core.session.entry import Entry


class RowEntry(Entry, gc=False, eq=False, kw_only=True):
    """An entry decoded with what its row needs of its message, from the same decode."""

    message_fields: RowMessage | None = msgspec.field(default=None, name="message")


decode_row_entry = msgspec.json.Decoder(RowEntry).decode
decode_content = msgspec.json.Decoder(RowContent).decode


def blocks_have_text(content: list[RowBlock]) -> bool:
    """Pi's hasTextContent of a list of blocks: some text block's text is a string that
    JavaScript's trim() does not empty."""
    for block in content:
        if block.type == "text" and type(block.text) is str and block.text.strip(JS_SPACE):
            return True
    return False


class TextFlags:
    """A line hook (with `decode` as the reader's decoder) setting each assistant entry's
    text flag as the session loads, so that no line is read again for it. An unusual
    content leaves the flag unknown: the usual path (the whole line parsed) decides."""

    decode = staticmethod(decode_row_entry)

    @staticmethod
    def take(entry: Entry, line: bytes | memoryview) -> None:
        fields = entry.message_fields
        if type(fields) is not RowMessage:
            return
        raw, fields.content = fields.content, None  # a view into the reader's buffer
        # a bare string, not EntryType (~80 ns a time): this runs per line while loading
        if fields.role != "assistant" or entry.type != "message" or raw is None:
            return
        try:
            content = decode_content(raw)
        except VIEW_ERRORS:
            return
        if isinstance(content, list):
            entry.set_text_flag(blocks_have_text(content))
        else:
            entry.set_text_flag(content is not None and bool(content.strip(JS_SPACE)))
