"""Which parts each entry type and message role shows (see `message_parts`)."""

from __future__ import annotations

from collections.abc import Callable

from pitui.core.file_history.call_results import call_results
from pitui.core.file_history.edit_diff import pi_diff
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import JsonObject, JsonValue
from pitui.core.format.jsvalues import js_trim
from pitui.core.format.system_prompt import sections_in_order
from pitui.core.rows.render_text import message_text
from pitui.core.rows.safe_text import one_line
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.message_parts import (
    Part,
    Results,
    as_text,
    content_parts,
    diff,
    fallback_parts,
    field,
    json_part,
    markdown,
    note,
    plain,
    target_preview,
)

Raw = JsonObject


def entry_parts(entry: Entry, tree: SessionTree | None = None) -> list[Part]:
    """The display parts of one entry; unknown types show their JSON."""
    if entry.type == EntryType.MESSAGE and entry.role == "assistant" and entry.raw.get("message"):
        results = call_results(tree, entry) if tree is not None else None
        return message_parts(entry.raw["message"], results)
    render = _ENTRY_RENDERERS.get(entry.type)
    if render is None:
        return fallback_parts(entry)
    return render(entry.raw, tree)


def message_parts(message: JsonValue, results: Results | None = None) -> list[Part]:
    """The display parts of one message object (any role; an assistant's tool calls with
    what `results` says of them)."""
    if not isinstance(message, dict):
        return [note("message is not an object:", "yellow"), json_part(message)]
    if message.get("role") == "assistant":
        return _assistant(message, results)
    role = message.get("role")
    render = _ROLE_RENDERERS.get(role) if isinstance(role, str) else None
    if render is None:
        return [note(f"unknown role {as_text(role)}:", "yellow"), json_part(message)]
    return render(message)


def _details(value: JsonValue, name: str = "details") -> list[Part]:
    return [] if value is None else [note(f"{name}:", "bold"), json_part(value)]


def _summary_part(summary: JsonValue) -> Part:
    return markdown(as_text(summary)) if summary else note("(no summary)", "dim")


# -- message roles -------------------------------------------------------------------------
def _user(message: Raw) -> list[Part]:
    return content_parts(message.get("content"))


def _assistant(message: Raw, results: Results | None = None) -> list[Part]:
    parts = content_parts(message.get("content"), results=results)
    reason = message.get("stopReason")
    if reason not in (None, "stop", "toolUse"):
        parts.append(field("stop reason", reason, "yellow"))
    if message.get("errorMessage") is not None:
        parts.append(field("error", message.get("errorMessage"), "bold red"))
    return parts


def _tool_result(message: Raw) -> list[Part]:
    error = bool(message.get("isError"))
    style = "red" if error else ""
    title = f"result of {as_text(message.get('toolName'))} ({as_text(message.get('toolCallId'))})"
    parts = [note(title + (" — ERROR" if error else ""), "bold red" if error else "bold green")]
    parts += content_parts(message.get("content"), rich=False, style=style)
    details = message.get("details")
    shown = pi_diff(details) if message.get("toolName") == "edit" else None
    if shown is None or not isinstance(details, dict):
        return parts + _details(details)
    rest = {k: v for k, v in details.items() if k not in _PI_DIFF_KEYS}
    first = [] if shown[1] is None else [field("first changed line", shown[1])]
    return [*parts, note("diff:", "bold"), *first, diff(shown[0]), *_details(rest or None)]


_PI_DIFF_KEYS = ("diff", "patch", "firstChangedLine")  # the same change, as Pi's diff shows it


def _bash(message: Raw) -> list[Part]:
    code = message.get("exitCode")
    failed = code not in (0, None) or bool(message.get("cancelled"))
    parts = [plain(f"$ {as_text(message.get('command'))}", "bold")]
    output = message.get("output")
    parts.append(plain(as_text(output)) if output else note("(no output)", "dim"))
    parts.append(field("exit code", code, "bold red" if failed else "green"))
    for flag in ("cancelled", "truncated", "excludeFromContext"):
        if message.get(flag):
            parts.append(field(flag, message.get(flag), "yellow"))
    if message.get("fullOutputPath") is not None:
        parts.append(field("full output", message.get("fullOutputPath")))
    return parts


def _custom_message(message: Raw) -> list[Part]:
    parts = [
        field("custom type", message.get("customType")),
        field("display", message.get("display")),
    ]
    return parts + content_parts(message.get("content")) + _details(message.get("details"))


def _system(message: Raw) -> list[Part]:
    parts = content_parts(message.get("content"))
    sections = message.get("sections")
    if isinstance(sections, dict):
        for name, text in sections_in_order(message):
            parts += [note(f"section {name}:", "bold"), markdown(as_text(text))]
    elif sections is not None:
        parts += _details(sections, "sections")
    parts += _details(message.get("toolsAdded"), "tools added")
    return parts + _details(message.get("toolsRemoved"), "tools removed")


def _summary(message: Raw) -> list[Part]:
    parts = [_summary_part(message.get("summary"))]
    for key in ("tokensBefore", "fromId"):
        if key in message:
            parts.append(field(key, message[key]))
    return parts


_ROLE_RENDERERS: dict[str, Callable[[Raw], list[Part]]] = {
    "user": _user,
    "assistant": _assistant,
    "toolResult": _tool_result,
    "bashExecution": _bash,
    "custom": _custom_message,
    "hookMessage": _custom_message,
    "system": _system,
    "branchSummary": _summary,
    "compactionSummary": _summary,
}


# -- entry types ---------------------------------------------------------------------------
def _message(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    if "message" not in raw or raw.get("message") is None:
        return [note("(message entry without a message)", "yellow")]
    return message_parts(raw.get("message"))


def _compaction(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    parts = [_summary_part(raw.get("summary"))]
    for key in ("tokensBefore", "firstKeptEntryId", "fromHook"):
        if key in raw:
            parts.append(field(key, raw[key]))
    tail = raw.get("retainedTail")
    if isinstance(tail, list):
        parts.append(field("retainedTail", f"{len(tail)} messages"))
        parts += [_tail_line(m) for m in tail]
    if raw.get("systemMessage") is not None:
        parts += [note("systemMessage:", "bold"), *message_parts(raw["systemMessage"])]
    return parts + _details(raw.get("details")) + _details(raw.get("usage"), "usage")


def _tail_line(message: JsonValue) -> Part:
    role = message.get("role") if isinstance(message, dict) else None
    return note(f"  {as_text(role)}: {one_line(message_text(message))[:160]}", "dim")


def _branch_summary(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    parts = [field("fromId", raw.get("fromId")), _summary_part(raw.get("summary"))]
    if "fromHook" in raw:
        parts.append(field("fromHook", raw["fromHook"]))
    return parts + _details(raw.get("details")) + _details(raw.get("usage"), "usage")


def _custom(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    parts = [field("custom type", raw.get("customType")), note("(never sent to the model)", "dim")]
    return parts + _details(raw.get("data"), "data")


def _custom_message_entry(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    return _custom_message(raw)


def _model_change(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    model = f"{as_text(raw.get('provider'))}/{as_text(raw.get('modelId'))}"
    return [field("model", model, "bold")]


def _thinking_level(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    return [field("thinking level", raw.get("thinkingLevel"), "bold")]


def _label(raw: Raw, tree: SessionTree | None) -> list[Part]:
    label = raw.get("label")
    text = "(cleared)" if label in (None, "") else as_text(label)
    parts = [field("target", raw.get("targetId")), field("label", text, "bold")]
    preview = target_preview(tree, raw.get("targetId"))
    return parts + ([note(preview, "dim")] if preview else [])


def _session_info(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    name = raw.get("name")
    empty = name is None or (isinstance(name, str) and not js_trim(name))
    return [field("session name", "(cleared)" if empty else name, "bold")]


def _context_edit(raw: Raw, tree: SessionTree | None) -> list[Part]:
    parts = [field("target", raw.get("targetId"))]
    preview = target_preview(tree, raw.get("targetId"))
    parts += [note(preview, "dim")] if preview else []
    if "replacement" not in raw:
        return [*parts, note("(no replacement key: no effect)", "yellow")]
    replacement = raw.get("replacement")
    if replacement is None:
        return [*parts, note("omits the target's messages from the context", "bold red")]
    if not isinstance(replacement, dict):
        return [
            *parts,
            note("replacement (not an object, ignored):", "yellow"),
            json_part(replacement),
        ]
    if "content" not in replacement:
        return [*parts, note("replaces the content with nothing", "bold yellow")]
    return [
        *parts,
        note("replaces the content with:", "bold yellow"),
        *content_parts(replacement["content"]),
    ]


def _usage(raw: Raw, _tree: SessionTree | None) -> list[Part]:
    parts = [field(key, raw.get(key)) for key in ("kind", "provider", "model")]
    return parts + _details(raw.get("usage"), "usage")


_ENTRY_RENDERERS: dict[str, Callable[[Raw, SessionTree | None], list[Part]]] = {
    EntryType.MESSAGE: _message,
    EntryType.COMPACTION: _compaction,
    EntryType.BRANCH_SUMMARY: _branch_summary,
    EntryType.CUSTOM: _custom,
    EntryType.CUSTOM_MESSAGE: _custom_message_entry,
    EntryType.MODEL_CHANGE: _model_change,
    EntryType.THINKING_LEVEL_CHANGE: _thinking_level,
    EntryType.LABEL: _label,
    EntryType.SESSION_INFO: _session_info,
    EntryType.CONTEXT_EDIT: _context_edit,
    EntryType.USAGE: _usage,
}
