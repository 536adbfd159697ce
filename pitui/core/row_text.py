"""What a tree row says: Pi's getEntryDisplayText, and the name a tool result takes from the
call it answers (`[read: path]`, `[bash: command]`)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from typing import Any

from pitui.core.entry import Entry
from pitui.core.jsvalues import js_number_string, js_string_to_number, js_trim
from pitui.core.render_text import entry_text

Display = tuple[str, str, str, str]  # tag, tag style, body, body style
ToolCalls = Callable[[], Mapping[Any, str]]  # call id -> how the call shows (asked when needed)


def _text_blocks(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    )


def _norm(text: str) -> str:
    return js_trim(text.replace("\n", " ").replace("\t", " "))


def is_silent(entry: Entry) -> bool:
    """An assistant message with no text that is neither an error nor aborted (tool calls)."""
    return not entry.has_text and not _error_or_aborted(entry.stop_reason)


def _error_or_aborted(reason: Any) -> bool:
    return reason not in (None, False, 0, "", "stop", "toolUse")


def _js(value: Any) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def collect_tool_calls(entry: Entry, calls: dict[Any, str]) -> None:
    message = entry.message or {}
    content = message.get("content")
    if message.get("role") == "assistant" and isinstance(content, list):
        blocks = [b for b in content if isinstance(b, dict) and b.get("type") == "toolCall"]
        add_tool_calls([(b.get("id"), b.get("name"), b.get("arguments")) for b in blocks], calls)


def add_tool_calls(found: list[tuple[Any, Any, Any]], calls: dict[Any, str]) -> None:
    for call_id, name, arguments in found:
        try:
            calls[call_id] = _tool_call_text(name, arguments)
        except TypeError:  # unhashable id
            continue


def entry_display(entry: Entry, raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    """(tag, tag style, body, body style) of an entry's row, as Pi's getEntryDisplayText."""
    kind = entry.type
    if kind == "message":
        message = raw.get("message")
        return _message_display(message if isinstance(message, dict) else {}, tool_calls)
    if kind == "custom_message":
        content = raw.get("content")
        text = content if isinstance(content, str) else _text_blocks(content)
        return f"[{_js(raw.get('customType'))}]: ", "custom", _norm(text), ""
    if kind == "compaction":
        tokens = raw.get("tokensBefore")
        count = int(tokens / 1000 + 0.5) if isinstance(tokens, int | float) else "NaN"
        return "", "", f"[compaction: {count}k tokens]", "compaction"
    if kind == "branch_summary":
        return "[branch summary]: ", "warning", _norm(str(raw.get("summary", ""))), ""
    return "", "", _setting_text(raw, kind) or f"[{kind}] {entry_text(entry)[:200]}", "dim"


def _setting_text(raw: dict[str, Any], kind: str) -> str | None:
    if kind == "model_change":
        return f"[model: {_js(raw.get('modelId'))}]"
    if kind == "thinking_level_change":
        return f"[thinking: {_js(raw.get('thinkingLevel'))}]"
    if kind == "custom":
        return f"[custom: {_js(raw.get('customType'))}]"
    if kind == "context_edit":
        action = "omit" if raw.get("replacement") is None else "replace"
        return f"[context {action}: {_js(raw.get('targetId'))}]"
    if kind == "label":
        return f"[label: {raw.get('label') or '(cleared)'}]"
    if kind == "session_info":
        return f"[title: {raw.get('name') or 'empty'}]"
    return None


def _message_display(message: dict[str, Any], tool_calls: ToolCalls) -> Display:
    role = message.get("role")
    if role == "user":
        return "user: ", "user", _norm(_text_blocks(message.get("content"))[:200]), ""
    if role == "assistant":
        text = _norm(_text_blocks(message.get("content"))[:200])
        if text:
            return "assistant: ", "assistant", text, ""
        if message.get("stopReason") == "aborted":
            return "assistant: ", "assistant", "(aborted)", "muted"
        if message.get("errorMessage"):
            return "assistant: ", "assistant", _norm(str(message["errorMessage"]))[:80], "error"
        return "assistant: ", "assistant", "(no content)", "muted"
    if role == "toolResult":
        call = tool_calls().get(_hashable(message.get("toolCallId")))
        if call is not None:
            return "", "", call, "muted"
        return "", "", f"[{message.get('toolName') or 'tool'}]", "muted"
    if role == "bashExecution":
        return "", "", f"[bash]: {_norm(str(message.get('command') or ''))}", "dim"
    return "", "", f"[{_js(role)}]", "dim"


def _hashable(value: Any) -> Any:
    return value if isinstance(value, str | int | float | type(None)) else None


def _home(path: str) -> str:
    """Pi's shortenHomePath with its HOME: a path in the home folder (once normalised, as
    path.resolve does) as `~/...`, the home folder itself as `~`."""
    home = os.environ.get("HOME") or os.environ.get("USERPROFILE") or ""
    if not home or not os.path.isabs(path):
        return path
    home_key, path_key = os.path.abspath(home), os.path.abspath(path)
    if path_key == home_key:
        return "~"
    if not path_key.startswith(home_key.rstrip(os.sep) + os.sep):
        return path
    return "~" + os.sep + os.path.relpath(path_key, home_key)


def _line_number(value: Any) -> float | None:
    """Pi's parseLineNumber: a finite number, or a string that Number() makes one."""
    if isinstance(value, str) and js_trim(value):
        value = js_string_to_number(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any double: JSON.parse makes it Infinity
        return None
    return number if math.isfinite(number) else None


def _read_range(offset: Any, limit: Any) -> str:
    if offset is None and limit is None:
        return ""
    start = 1 if offset is None else _line_number(offset)
    if start is None:
        return ""
    if limit is None:
        return f":{js_number_string(start)}"
    count = _line_number(limit)
    if count is None:
        return ""
    end = start + count - 1
    return f":{js_number_string(start)}" + (f"-{js_number_string(end)}" if end else "")


def _tool_call_text(name: Any, args: Any) -> str:
    args = args if isinstance(args, dict) else {}
    if name in ("read", "write", "edit"):
        path = _home(str(args.get("path") or args.get("file_path") or ""))
        extra = _read_range(args.get("offset"), args.get("limit")) if name == "read" else ""
        return f"[{name}: {path}{extra}]"
    if name == "bash":
        raw = str(args.get("command") or "")
        return f"[bash: {_norm(raw)[:50]}{'...' if len(raw) > 50 else ''}]"
    if name in ("grep", "find"):
        pattern, path = str(args.get("pattern") or ""), _home(str(args.get("path") or "."))
        return (
            f"[grep: /{pattern}/ in {path}]" if name == "grep" else f"[find: {pattern} in {path}]"
        )
    if name == "ls":
        return f"[ls: {_home(str(args.get('path') or '.'))}]"
    dumped = json.dumps(args, separators=(",", ":"), ensure_ascii=False)
    return f"[{_js(name)}: {dumped[:40]}{'...' if len(dumped) > 40 else ''}]"


def searchable_text(label: str | None, entry: Entry, text: str) -> str:
    """Pi's getSearchableText, approximately: label, role or type, and the row text."""
    parts = [label or "", entry.role or entry.type, text]
    if entry.role == "bashExecution":
        parts.append(str((entry.message or {}).get("command", "")))
    return " ".join(parts)
