"""Markdown blocks of one message: text, thinking, tool calls, tool results, images."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pitui.core.export.document import Block, code_block
from pitui.core.export.fence import escape_inline, fenced, inline_code, language_for, quoted
from pitui.core.export.options import DEFAULT_MAX_TOOL_LINES
from pitui.core.file_history.edit_diff import edit_diff
from pitui.core.format.jsonline import indented_json
from pitui.core.format.system_prompt import system_text
from pitui.core.size_text import human_size

_PATH_KEYS = ("path", "file_path", "filePath", "file")
READ_TOOLS = frozenset({"read", "read_file", "view", "cat"})


@dataclass(slots=True)
class MessageRenderer:
    """Renders messages in order; remembers each tool call so that its result is fenced in
    the language of the file the call read."""

    max_tool_lines: int = DEFAULT_MAX_TOOL_LINES
    calls: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (name, language)

    def blocks(self, message: Any, heading: str) -> list[Block]:
        if not isinstance(message, dict):
            return [Block(f"{heading}\n\n{fenced(indented_json(message), 'json')}")]
        role = message.get("role")
        render = _ROLES.get(role) if isinstance(role, str) else None
        if render is None:
            return [Block(f"{heading}\n\n{fenced(indented_json(message), 'json')}")]
        return render(self, message, heading)

    # -- roles --------------------------------------------------------------------------
    def _user(self, message: dict[str, Any], heading: str) -> list[Block]:
        return [Block(heading), *self._content(message.get("content"))]

    def _assistant(self, message: dict[str, Any], heading: str) -> list[Block]:
        blocks = [Block(heading), *self._content(message.get("content"))]
        error = message.get("errorMessage")
        if error:
            blocks.append(
                Block(
                    f"**Error** ({escape_inline(str(message.get('stopReason')))}):"
                    f"\n\n{fenced(str(error), 'text')}"
                )
            )
        return blocks

    def _tool_result(self, message: dict[str, Any], heading: str) -> list[Block]:
        call_id = message.get("toolCallId")
        name, language = self.calls.get(call_id, ("", "")) if isinstance(call_id, str) else ("", "")
        if message.get("isError") is True or name not in READ_TOOLS:
            language = ""  # only what a read returns is the file's text
        blocks = [Block(heading + (" (error)" if message.get("isError") is True else ""))]
        content = message.get("content")
        text, images = _text_and_images(content)
        if text or not images:
            blocks.extend(self._cut(text, language))
        if images:
            blocks.extend(Block(image) for image in images)
        return blocks

    def _bash(self, message: dict[str, Any], heading: str) -> list[Block]:
        command = str(message.get("command", ""))
        notes = [f"exit code {message.get('exitCode')}"]
        if message.get("cancelled") is True:
            notes.append("cancelled")
        if message.get("excludeFromContext") is True:
            notes.append("not sent to the model")
        return [
            Block(f"{heading} ({', '.join(notes)})"),
            code_block(command, "sh"),
            *self._cut(str(message.get("output", "")), "text"),
        ]

    def _summary(self, message: dict[str, Any], heading: str) -> list[Block]:
        return [Block(f"{heading}\n\n{quoted(str(message.get('summary', '')))}")]

    def _system(self, message: dict[str, Any], heading: str) -> list[Block]:
        text = system_text(message)
        return [Block(heading), code_block(text, "text", summary="System prompt")]

    def _custom(self, message: dict[str, Any], heading: str) -> list[Block]:
        kind = message.get("customType")
        title = f"{heading} {inline_code(str(kind))}" if kind is not None else heading
        return [Block(title), *self._content(message.get("content"))]

    # -- content ------------------------------------------------------------------------
    def _content(self, content: Any) -> list[Block]:
        if isinstance(content, str):
            return [Block(content)] if content else []
        if not isinstance(content, list):
            return [] if content is None else [code_block(indented_json(content), "json")]
        blocks: list[Block] = []
        for part in content:
            blocks.extend(self._part(part))
        return blocks

    def _part(self, part: Any) -> list[Block]:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            text = part.get("text")
            return [Block(str(text))] if text else []
        if kind == "thinking":
            thinking = str(part.get("thinking", ""))
            return [] if not thinking or thinking.isspace() else [Block(thinking, "Thinking")]
        if kind == "toolCall":
            return self._tool_call(part)
        if kind == "image":
            return [Block(image_note(part))]
        return [code_block(indented_json(part), "json")]

    def _tool_call(self, call: dict[str, Any]) -> list[Block]:
        name = str(call.get("name", ""))
        arguments = call.get("arguments")
        args = arguments if isinstance(arguments, dict) else {}
        path = _path_of(args)
        language = language_for(path)
        if isinstance(call.get("id"), str):
            self.calls[call["id"]] = (name, language)
        title = f"**Tool call** {inline_code(name)}"
        if path is not None:
            title += f" {inline_code(path)}"
        if name == "bash" and isinstance(args.get("command"), str) and len(args) <= 2:
            return [Block(title), code_block(args["command"], "sh")]
        if name == "write" and isinstance(args.get("content"), str):
            return [Block(title), *self._cut(args["content"], language)]
        found = edit_diff(arguments) if name == "edit" else None
        if found is not None:
            return [Block(title), *self._cut(found.text, "diff")]
        return [Block(title), code_block(indented_json(arguments), "json")]

    def _cut(self, text: str, language: str) -> list[Block]:
        """The text fenced, cut after `max_tool_lines` lines with a note."""
        limit = self.max_tool_lines
        lines = text.count("\n") + 1
        if limit <= 0 or lines <= limit:
            return [code_block(text, language)]
        end = -1
        for _ in range(limit):
            end = text.index("\n", end + 1)
        note = f"*… {lines - limit} more lines not shown*"
        return [code_block(text[:end], language), Block(note)]


_ROLES = {
    "user": MessageRenderer._user,
    "assistant": MessageRenderer._assistant,
    "toolResult": MessageRenderer._tool_result,
    "bashExecution": MessageRenderer._bash,
    "branchSummary": MessageRenderer._summary,
    "compactionSummary": MessageRenderer._summary,
    "system": MessageRenderer._system,
    "custom": MessageRenderer._custom,
}


def _path_of(args: dict[str, Any]) -> str | None:
    """The file a tool call names (a loop: a generator costs more than the lookups)."""
    for key in _PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            return value
    return None


def _text_and_images(content: Any) -> tuple[str, list[str]]:
    if isinstance(content, str):
        return content, []
    if isinstance(content, list) and len(content) == 1:  # the usual: one text part
        part = content[0]
        if isinstance(part, dict) and part.get("type") == "text":
            return str(part.get("text", "")), []
    texts: list[str] = []
    images: list[str] = []
    for part in content if isinstance(content, list) else ():
        if isinstance(part, dict) and part.get("type") == "text":
            texts.append(str(part.get("text", "")))
        elif isinstance(part, dict) and part.get("type") == "image":
            images.append(image_note(part))
        elif part is not None:
            texts.append(indented_json(part))
    return "\n".join(texts), images


def image_note(part: dict[str, Any]) -> str:
    """`[image: image/png, 1.2 KB]`: an image is never embedded."""
    data = part.get("data")
    size = _base64_size(data) if isinstance(data, str) else None
    mime = escape_inline(str(part.get("mimeType", "?")))
    return f"\\[image: {mime}{'' if size is None else ', ' + human_size(size)}\\]"


def _base64_size(data: str) -> int:
    return max(0, len(data) * 3 // 4 - data[-2:].count("="))
