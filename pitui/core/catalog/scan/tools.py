"""Tool output of a byte range of a session file, for the deferred tool-output index.

Tool output is most of a session's bytes (often 80%+) and only pitui's last search tier looks
at it, so the catalog indexes it in a second pass after the listing is complete (see
`Catalog.index_tools`). The text of one message is what `_tool_body` returns; a range's text
is the bodies joined by newlines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from pitui.core.catalog.session_info import capped
from pitui.core.catalog.session_info.entry_rules import split_lines
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.format.line_views import ToolOutputLine

UNSET = msgspec.UNSET
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)
_ROLES = (b'"toolResult"', b'"bashExecution"')
_MESSAGE = EntryType.MESSAGE  # bound once: `_line_body` runs for each tool message


_decode_entry = msgspec.json.Decoder(ToolOutputLine).decode
_decode_any = msgspec.json.Decoder().decode


def tool_text(data: bytes) -> str:
    """Tool output of the complete lines in `data` (a range that ends after a newline)."""
    bodies: list[str] = []
    for line in data.split(b"\n"):
        # cheap skip: a tool message names its role literally (or escapes it with \\u)
        if not (_ROLES[0] in line or _ROLES[1] in line or b"\\u" in line):
            continue
        for part in split_lines(line):
            body = _line_body(part)
            if body:
                bodies.append(body)
    return "\n".join(bodies)


def _line_body(raw: bytes) -> str | None:
    try:
        entry = _decode_entry(raw)
        if entry.type != _MESSAGE or entry.message is None or entry.message is UNSET:
            return None
        message = entry.message
        if message.role not in ("toolResult", "bashExecution") or message.content is UNSET:
            return None
        if message.role == "bashExecution" and message.output is not UNSET:
            output = _capped_any(message.output, capped.string)
            if output is not None:  # else the content, as `_tool_body`
                return _tool_body(message.role, output, None)
        content = _capped_any(message.content, _tool_blocks)
        return _tool_body(message.role, None, content)
    except (*_ERRORS, capped.Declined):
        pass
    try:
        value = parse_line(raw)
    except LineError:
        return None
    if not isinstance(value, dict) or value.get("type") != _MESSAGE:
        return None
    parsed = value.get("message")
    if not isinstance(parsed, dict) or "content" not in parsed:
        return None
    role = parsed.get("role")
    if role not in ("toolResult", "bashExecution"):
        return None
    output = parsed.get("output") if role == "bashExecution" else None
    return _tool_body(role, output, parsed["content"])


def _tool_blocks(raw: msgspec.Raw) -> str:
    return capped.text_blocks(raw, tool=True)


def _capped_any(raw: msgspec.Raw, read_long: Callable[[msgspec.Raw], str]) -> Any:
    """The JSON value `raw`; a huge one through `read_long` (a capped string, never a copy of
    all of it)."""
    return read_long(raw) if capped.is_long(raw) else _decode_any(raw)


def _tool_body(role: str, output: Any, content: Any) -> str | None:
    """`output` (bashExecution), else the text blocks of `content`, else a string content;
    at most `capped.MESSAGE_TEXT_CAP` characters."""
    body = output if role == "bashExecution" else None
    if body is None:
        if isinstance(content, list):
            parts = [b.get("text") for b in content if isinstance(b, dict)]
            body = " ".join(p for p in parts if isinstance(p, str))
        else:
            body = content
    return body[: capped.MESSAGE_TEXT_CAP] if isinstance(body, str) and body else None
