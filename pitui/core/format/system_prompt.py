"""A system message's text as Pi renders it: pi-ai's `getSystemMessageText` (its content,
then each section in JavaScript's key order, non-empty parts joined by a blank line), plus
the sections it removes, named as pi-ai's `renderSystemMessageUpdate` names them.

Pi stores its system prompt as `{"role":"system","content":"","sections":{...}}`: the content
alone is empty, so this is what every place that shows or exports a system message shows.
"""

from __future__ import annotations

from typing import Any

_MAX_INDEX = 2**32 - 2  # the largest array index: such keys come first in JavaScript


def js_key_order(keys: list[str]) -> list[str]:
    """`Object.keys` order: array-index keys ascending, then the others as written."""
    indices = sorted((k for k in keys if _is_index(k)), key=int)
    return indices + [k for k in keys if not _is_index(k)]


def _is_index(key: str) -> bool:
    return key.isdigit() and key.isascii() and str(int(key)) == key and int(key) <= _MAX_INDEX


def sections_in_order(message: dict[str, Any]) -> list[tuple[str, Any]]:
    """The message's sections (name, text or None), in Pi's order; [] when it has none."""
    sections = message.get("sections")
    if not isinstance(sections, dict):
        return []
    return [(name, sections[name]) for name in js_key_order(list(sections))]


def system_text(message: dict[str, Any]) -> str:
    """The prompt text of a system message, with a line for each section it removes."""
    parts = [_content_text(message.get("content"))]
    removed = []
    for name, text in sections_in_order(message):
        if isinstance(text, str):
            parts.append(text)
        elif text is None:
            removed.append(f'Removed system prompt section "{name}".')
    return "\n\n".join([p for p in parts if p] + removed)


def _content_text(content: Any) -> str:
    """pi-ai's contentText: a string, or its text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    blocks = content if isinstance(content, list) else ()
    texts = (b.get("text") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
    return "\n".join(t if isinstance(t, str) else "" for t in texts)
