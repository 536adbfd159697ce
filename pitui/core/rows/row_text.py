"""What a tree row says: Pi's getEntryDisplayText, and the name a tool result takes from the
call it answers (`[read: path]`, `[bash: command]`)."""

from __future__ import annotations

import functools
import math
import os
import posixpath
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import dumps
from pitui.core.format.jsvalues import (
    UNDEFINED,
    js_join_item,
    js_length,
    js_number_string,
    js_slice,
    js_string,
    js_string_to_number,
    js_to_number,
    js_trim,
    js_truthy,
)
from pitui.core.rows.render_text import entry_text
from pitui.core.session.entry import Entry

Display = tuple[str, str, str, str]  # tag, tag style, body, body style
ToolCalls = Callable[[], Mapping[Any, str]]  # call id -> how the call shows (asked when needed)
ToolCall = tuple[Any, Any, Any]  # (id, name, arguments)


def _text_blocks(content: Any, stringify: Callable[[Any], str] = js_string) -> str:
    """Pi's extractFullContent: a string, or the texts of its text blocks, each made a
    string by `stringify`: `+=` gives String() (a missing text is "undefined"); a custom
    message's `.map(c => c.text).join("")` gives js_join_item ("" for it)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        stringify(b.get("text", UNDEFINED))
        for b in content
        if isinstance(b, dict) and b.get("type") == "text"
    )


def _norm(text: str) -> str:
    return js_trim(text.replace("\n", " ").replace("\t", " "))


def is_silent(entry: Entry) -> bool:
    """An assistant message with no text that is neither an error nor aborted (tool calls)."""
    return not entry.has_text and not _error_or_aborted(entry.stop_reason)


def _error_or_aborted(reason: Any) -> bool:
    return reason not in (None, False, 0, "", "stop", "toolUse")


def entry_tool_calls(entry: Entry) -> list[ToolCall]:
    """The tool calls of an assistant entry, from its parsed JSON."""
    return message_tool_calls(entry.message or {})


def message_tool_calls(message: dict[str, Any]) -> list[ToolCall]:
    """The tool calls of an assistant message (its parsed JSON)."""
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, list):
        return []
    blocks = [b for b in content if isinstance(b, dict) and b.get("type") == "toolCall"]
    return [(b.get("id"), b.get("name", UNDEFINED), b.get("arguments", UNDEFINED)) for b in blocks]


def tool_call_texts(found: list[ToolCall], home: str | None = None) -> Iterator[tuple[Any, str]]:
    """(call id, how the call shows) of each call Pi can show (without arguments its
    formatToolCall throws); `home`: the home folder paths are shown from (`home_dir()`)."""
    home = home_dir() if home is None else home
    for call_id, name, arguments in found:
        try:
            yield call_id, tool_call_text(name, arguments, home)
        except TypeError:
            continue


def entry_display(entry: Entry, raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    """(tag, tag style, body, body style) of an entry's row, as Pi's getEntryDisplayText
    (with JavaScript's String() of whatever value stands where text is expected)."""
    display = _DISPLAYS.get(entry.type)
    if display is not None:
        return display(raw, tool_calls)
    return "", "", f"[{entry.type}] {entry_text(entry)[:200]}", "dim"


def _message_entry_display(raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    message = raw.get("message")
    return _message_display(message if isinstance(message, dict) else {}, tool_calls)


def _custom_message_display(raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    text = _text_blocks(raw.get("content"), js_join_item)
    return f"[{_field(raw, 'customType')}]: ", "custom", _norm(text), ""


def _compaction_display(raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    count = js_number_string(_js_round(js_to_number(_get(raw, "tokensBefore")) / 1000))
    return "", "", f"[compaction: {count}k tokens]", "compaction"


def _branch_summary_display(raw: dict[str, Any], tool_calls: ToolCalls) -> Display:
    return "[branch summary]: ", "warning", _norm(js_string(_get(raw, "summary"))), ""


def _dim(text: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any], ToolCalls], Display]:
    """The row of a settings entry: its text, dimmed."""
    return lambda raw, tool_calls: ("", "", text(raw), "dim")


def _js_round(number: float) -> float:
    """Math.round: halves go up, NaN and infinities stay."""
    return math.floor(number + 0.5) if math.isfinite(number) else number


def _get(raw: Mapping[str, Any], key: str) -> Any:
    return raw.get(key, UNDEFINED)


def _field(raw: Mapping[str, Any], key: str) -> str:
    """`${raw.key}`."""
    return js_string(raw.get(key, UNDEFINED))


def _edit_action(raw: dict[str, Any]) -> str:
    """`entry.replacement === null ? "omit" : "replace"` (a missing one is not null)."""
    return "omit" if "replacement" in raw and raw["replacement"] is None else "replace"


# Settings entries: the word their row and their search text start with, and the field
# that follows it (`[model: ${entry.modelId}]`, "model " + modelId).
_SETTING_FIELDS = {
    EntryType.MODEL_CHANGE: ("model", "modelId"),
    EntryType.THINKING_LEVEL_CHANGE: ("thinking", "thinkingLevel"),
    EntryType.CUSTOM: ("custom", "customType"),
}


def _setting_text(kind: EntryType) -> Callable[[dict[str, Any]], str]:
    word, key = _SETTING_FIELDS[kind]
    return lambda raw: f"[{word}: {_field(raw, key)}]"


def _context_edit_text(raw: dict[str, Any]) -> str:
    return f"[context {_edit_action(raw)}: {_field(raw, 'targetId')}]"


def _label_text(raw: dict[str, Any]) -> str:
    label = raw.get("label")
    return f"[label: {'(cleared)' if label is None else js_string(label)}]"


def _session_info_text(raw: dict[str, Any]) -> str:
    name = raw.get("name")
    return f"[title: {js_join_item(name) if js_truthy(name) else 'empty'}]"


# The row of each entry type (another, `usage` among them, shows its type and its text).
_DISPLAYS: dict[str, Callable[[dict[str, Any], ToolCalls], Display]] = {
    EntryType.MESSAGE: _message_entry_display,
    EntryType.CUSTOM_MESSAGE: _custom_message_display,
    EntryType.COMPACTION: _compaction_display,
    EntryType.BRANCH_SUMMARY: _branch_summary_display,
    EntryType.MODEL_CHANGE: _dim(_setting_text(EntryType.MODEL_CHANGE)),
    EntryType.THINKING_LEVEL_CHANGE: _dim(_setting_text(EntryType.THINKING_LEVEL_CHANGE)),
    EntryType.CUSTOM: _dim(_setting_text(EntryType.CUSTOM)),
    EntryType.CONTEXT_EDIT: _dim(_context_edit_text),
    EntryType.LABEL: _dim(_label_text),
    EntryType.SESSION_INFO: _dim(_session_info_text),
}


def _message_display(message: dict[str, Any], tool_calls: ToolCalls) -> Display:
    role = message.get("role")
    if role == "user":
        return user_display(_text_blocks(message.get("content")))
    if role == "assistant":
        text = _text_blocks(message.get("content"))
        return assistant_display(text, message.get("stopReason"), message.get("errorMessage"))
    if role == "toolResult":
        call_id = message.get("toolCallId")
        calls = tool_calls() if js_truthy(call_id) else {}
        return tool_result_display(call_id, message.get("toolName"), calls)
    if role == "bashExecution":
        command = message.get("command")
        return "", "", f"[bash]: {_norm('' if command is None else js_string(command))}", "dim"
    return "", "", f"[{_field(message, 'role')}]", "dim"


def user_display(text: str) -> Display:
    """A user message's row, from the text of its content (Pi's extractFullContent)."""
    return "user: ", "user", _norm(js_slice(text, 200)), ""


def assistant_display(text: str, stop_reason: Any, error: Any) -> Display:
    """An assistant message's row, from the text of its content, its stopReason and its
    errorMessage (None where missing)."""
    text = _norm(js_slice(text, 200))
    if text:
        return "assistant: ", "assistant", text, ""
    if stop_reason == "aborted":
        return "assistant: ", "assistant", "(aborted)", "muted"
    if js_truthy(error):
        return "assistant: ", "assistant", js_slice(_norm(js_string(error)), 80), "error"
    return "assistant: ", "assistant", "(no content)", "muted"


def tool_result_display(call_id: Any, name: Any, tool_calls: Mapping[Any, str]) -> Display:
    """A tool result's row: the call it answers as that call shows, else its toolName
    (None where missing)."""
    call = tool_calls.get(_hashable(call_id)) if js_truthy(call_id) else None
    if call is not None:
        return "", "", call, "muted"
    return "", "", f"[{'tool' if name is None else js_string(name)}]", "muted"


def _hashable(value: Any) -> Any:
    return value if isinstance(value, str | int | float | type(None)) else None


def home_dir() -> str:
    """The home folder as Pi's shortenHomePath finds it ("" when there is none)."""
    return os.environ.get("HOME") or os.environ.get("USERPROFILE") or ""


_POSIX = os.sep == "/" and os.path.isabs is posixpath.isabs  # isabs: starts with "/"


@functools.lru_cache(maxsize=4)
def _home_key(home: str) -> tuple[str, str]:
    """The home folder normalised, and as the start of a path inside it."""
    key = os.path.abspath(home)
    return key, key.rstrip(os.sep) + os.sep


def _home(path: str, home: str) -> str:
    """Pi's shortenHomePath with `home`: a path in the home folder (once normalised, as
    path.resolve does) as `~/...`, the home folder itself as `~`."""
    if not home or not (path.startswith("/") if _POSIX else os.path.isabs(path)):
        return path
    home_key, inside = _home_key(home)
    path_key = path if _normalised(path) else os.path.abspath(path)
    if path_key == home_key:
        return "~"
    if not path_key.startswith(inside):
        return path
    return "~" + os.sep + os.path.relpath(path_key, home_key)


def _normalised(path: str) -> bool:
    """An absolute POSIX path that abspath leaves as it is (no `//`, `.`, `..` or trailing
    `/`): most paths, spared the normalising."""
    return os.sep == "/" and "//" not in path and "/." not in path and not path.endswith("/")


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
    """Pi's formatReadLineRange (None and UNDEFINED both stand for JavaScript's nullish)."""
    if offset is None and limit is None:  # most reads
        return ""
    offset = None if offset is UNDEFINED else offset
    limit = None if limit is UNDEFINED else limit
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


def tool_call_text(name: Any, args: Any, home: str) -> str:
    """Pi's formatToolCall; raises TypeError where it throws (no arguments)."""
    if name in ("read", "write", "edit"):
        path = _home(_arg(args, "path", "file_path", default=""), home)
        extra = ""
        if name == "read" and isinstance(args, dict):
            offset, limit = args.get("offset"), args.get("limit")
            if offset is not None or limit is not None:  # else no range, as _read_range says
                extra = _read_range(offset, limit)
        return f"[{name}: {path}{extra}]"
    if name == "bash":
        raw = _arg(args, "command", default="")
        return f"[bash: {js_slice(_norm(raw), 50)}{'...' if js_length(raw) > 50 else ''}]"
    if name == "grep":
        return f"[grep: /{_arg(args, 'pattern', default='')}/ in {_home(_arg(args, 'path'), home)}]"
    if name == "find":
        return f"[find: {_arg(args, 'pattern', default='')} in {_home(_arg(args, 'path'), home)}]"
    if name == "ls":
        return f"[ls: {_home(_arg(args, 'path'), home)}]"
    dumped = dumps(args)
    return f"[{js_string(name)}: {js_slice(dumped, 40)}{'...' if js_length(dumped) > 40 else ''}]"


def _value(args: Any, key: str) -> Any:
    """`args.key`, None standing for undefined and null alike."""
    return args.get(key) if isinstance(args, dict) else None


def _arg(args: Any, *keys: str, default: str = ".") -> str:
    """`String(args.a || args.b || default)`."""
    if not isinstance(args, dict):
        return default
    for key in keys:
        value = args.get(key)
        if type(value) is str:
            if value:
                return value
        elif js_truthy(value):
            return js_string(value)
    return default


def searchable_text(entry: Entry, raw: dict[str, Any]) -> str:
    """Pi's getSearchableText without the label: what /tree search looks in."""
    return " ".join(js_join_item(part) for part in _search_parts(entry.type, raw))


def message_searchable_text(
    role: Any, content: Any, command: Any, text_of: Callable[[Any], str] = _text_blocks
) -> str:
    """`searchable_text` of a message entry, from its message's role, content and command
    (UNDEFINED when missing); `text_of`: Pi's extractFullContent of the content."""
    if type(role) is str and role != "bashExecution":  # the usual case, made quick
        return f"{role} {js_slice(text_of(content), 200)}" if js_truthy(content) else role
    parts = [role]
    if js_truthy(content):
        parts.append(js_slice(text_of(content), 200))
    if role == "bashExecution" and js_truthy(command):
        parts.append(command)
    return " ".join(js_join_item(part) for part in parts)


def _search_parts(kind: str, raw: dict[str, Any]) -> list[Any]:
    parts = _SEARCH_PARTS.get(kind)
    return [] if parts is None else parts(raw)


def _message_search_parts(raw: dict[str, Any]) -> list[Any]:
    message = raw.get("message")
    message = message if isinstance(message, dict) else {}
    get = message.get
    return [message_searchable_text(get("role", UNDEFINED), get("content"), get("command"))]


def _custom_message_search_parts(raw: dict[str, Any]) -> list[Any]:
    content = raw.get("content")
    text = content if isinstance(content, str) else js_slice(_text_blocks(content), 200)
    return [raw.get("customType", UNDEFINED), text]


def _session_info_search_parts(raw: dict[str, Any]) -> list[Any]:
    name = raw.get("name")
    return ["title", name] if js_truthy(name) else ["title"]


def _label_search_parts(raw: dict[str, Any]) -> list[Any]:
    label = raw.get("label")
    return ["label", "" if label is None else label]


def _setting_search_parts(kind: EntryType) -> Callable[[dict[str, Any]], list[Any]]:
    word, key = _SETTING_FIELDS[kind]
    return lambda raw: [word, raw.get(key, UNDEFINED)]


# What /tree search looks in, for each entry type (nothing for another).
_SEARCH_PARTS: dict[str, Callable[[dict[str, Any]], list[Any]]] = {
    EntryType.MESSAGE: _message_search_parts,
    EntryType.CUSTOM_MESSAGE: _custom_message_search_parts,
    EntryType.SESSION_INFO: _session_info_search_parts,
    EntryType.CONTEXT_EDIT: lambda raw: [
        "context edit",
        _edit_action(raw),
        raw.get("targetId", UNDEFINED),
    ],
    EntryType.LABEL: _label_search_parts,
    EntryType.COMPACTION: lambda raw: ["compaction"],
    EntryType.BRANCH_SUMMARY: lambda raw: ["branch summary", raw.get("summary", UNDEFINED)],
    EntryType.MODEL_CHANGE: _setting_search_parts(EntryType.MODEL_CHANGE),
    EntryType.THINKING_LEVEL_CHANGE: _setting_search_parts(EntryType.THINKING_LEVEL_CHANGE),
    EntryType.CUSTOM: _setting_search_parts(EntryType.CUSTOM),
}
