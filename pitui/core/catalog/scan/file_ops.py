"""The write and edit calls of a byte range of a session file, for the picker's `file:PATH`:
each call's id and the path it wrote (resolved against the session's cwd as Pi's tools
resolve it), and which calls' results say they succeeded. Read with the tool output (the
tool pass), so `file:` asks the index and never reads the sessions.

Only lines whose bytes say `"write"` or `"edit"` are parsed, as `pitui log` reads them
(`file_history.session_changes`)."""

from __future__ import annotations

from typing import Any

from pitui.core.catalog.index.records import NO_FILE_OPS, FileOps
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.format.jsvalues import js_truthy
from pitui.core.format.pi_paths import resolve_to_cwd
from pitui.core.format.tool_arguments import FILE_TOOLS, call_path

WRITE, EDIT = (f'"{tool}"'.encode() for tool in FILE_TOOLS)


def header_cwd(line: bytes) -> str:
    """The cwd of a session's header line ("" when it has none)."""
    try:
        header = parse_line(line)
    except LineError:
        return ""
    cwd = header.get("cwd") if isinstance(header, dict) else None
    return cwd if isinstance(cwd, str) else ""


def file_ops(data: bytes, cwd: str) -> FileOps:
    """The write/edit calls and successful results of the complete lines in `data`."""
    if WRITE not in data and EDIT not in data:  # most ranges: one scan of the bytes
        return NO_FILE_OPS
    writes: list[tuple[str, str]] = []
    succeeded: list[str] = []
    for line in data.split(b"\n"):
        if WRITE not in line and EDIT not in line:
            continue
        try:
            raw = parse_line(line)
        except LineError:
            continue
        message = raw.get("message") if isinstance(raw, dict) else None
        if isinstance(message, dict) and raw.get("type") == "message":
            _take(message, cwd, writes, succeeded)
    return FileOps(writes, succeeded) if writes or succeeded else NO_FILE_OPS


def _take(message: dict[str, Any], cwd: str, writes: list[tuple[str, str]], ok: list[str]) -> None:
    role = message.get("role")
    if role == "toolResult" and message.get("toolName") in FILE_TOOLS:
        call_id = message.get("toolCallId")
        if isinstance(call_id, str) and not js_truthy(message.get("isError")):
            ok.append(call_id)
        return
    content = message.get("content")
    if role != "assistant" or not isinstance(content, list):
        return
    for part in content:
        if not isinstance(part, dict) or part.get("type") != "toolCall":
            continue
        call_id, raw_path = part.get("id"), call_path(part.get("arguments"))
        if part.get("name") in FILE_TOOLS and isinstance(call_id, str) and raw_path is not None:
            path = resolve_to_cwd(raw_path, cwd)
            if path is not None:
                writes.append((call_id, path))
