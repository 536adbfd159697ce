"""A branch or a leaf's context a page at a time, for agents (`pitui mcp`).

Every page is bounded: at most `limit` entries or messages and about `PAGE_CHARS`
characters (always at least one), a text longer than `TEXT_CHARS` cut with a note saying
so. Secrets are redacted by default, with the export's detector. A page names the leaf it
was read from: reading the next pages from that leaf gives the same branch, even while the
session grows (a file only ever has lines appended).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pitui.core.errors import PituiError
from pitui.core.export.build import resolve_leaf
from pitui.core.export.export import entry_markdown
from pitui.core.export.redactor import Redactor
from pitui.core.export.source import entry_raws
from pitui.core.rows.safe_text import one_line, visible
from pitui.core.session.session import Session

PAGE_CHARS = 60_000
TEXT_CHARS = 20_000
MAX_LIMIT = 200


@dataclass(frozen=True, slots=True)
class Page:
    """Entries (or messages) `offset` to `offset + count` of `total`, `text` showing them."""

    text: str
    leaf: str | None
    offset: int
    count: int
    total: int

    @property
    def next_offset(self) -> int | None:
        end = self.offset + self.count
        return end if end < self.total else None


def branch_page(
    session: Session, leaf_id: str | None, offset: int = 0, limit: int = 20, redact: bool = True
) -> Page:
    """Readable text of the branch ending at `leaf_id` (default: the session's leaf), entries
    `offset` on, each under a line with its number, id, role and time."""
    leaf = _leaf(session, leaf_id)
    path = session.tree.path_to(leaf.id) if leaf else []
    start, end = _window(offset, limit, len(path))
    parts: list[str] = []
    size = 0
    for number, (entry, raw) in enumerate(entry_raws(path[start:end]), start=start):
        body = _cut(entry_markdown(raw, redact=redact).strip())
        role = entry.role if entry.type == "message" else entry.type
        part = f"── [{number}] id {entry.id} · {role} · {entry.timestamp}\n{body}\n"
        if parts and size + len(part) > PAGE_CHARS:
            break
        parts.append(part)
        size += len(part)
    leaf_name = leaf.id if leaf else None
    head = _heading(session, leaf_name, start, len(parts), len(path), redact)
    page = Page("", leaf_name, start, len(parts), len(path))
    return replace(page, text=visible("\n".join([head, *parts, _footer(page)])))


def context_page(
    session: Session, leaf_id: str | None, offset: int = 0, limit: int = 20, redact: bool = True
) -> dict[str, Any]:
    """The context Pi builds from `leaf_id` (as `pitui context --json`: its settings and
    messages), messages `offset` on; long strings cut (then `truncated` is true)."""
    leaf = _leaf(session, leaf_id)
    context = session.context(leaf.id if leaf else None)
    data = context.to_json()
    messages = data.pop("messages")
    start, end = _window(offset, limit, len(messages))
    redactor = Redactor(redact)
    cutter = _Cutter()
    kept: list[Any] = []
    size = 0
    for message in messages[start:end]:
        try:
            shown = cutter.value(redactor.value(message))
        except RecursionError:
            shown, cutter.cut = "[a message nested too deeply to show]", True
        weight = len(repr(shown))
        if kept and size + weight > PAGE_CHARS:
            break
        kept.append(shown)
        size += weight
    next_offset = start + len(kept) if start + len(kept) < len(messages) else None
    return {
        "sessionId": session.header.get("id"),
        "leaf": leaf.id if leaf else None,
        **redactor.value(data),
        "estimatedTokens": context.tokens,
        "messageCount": len(messages),
        "offset": start,
        "nextOffset": next_offset,
        "truncated": cutter.cut,
        "messages": kept,
    }


def _leaf(session: Session, leaf_id: str | None) -> Any:
    if leaf_id is not None and session.tree.get(leaf_id) is None:
        raise PituiError(f"no entry with id {one_line(leaf_id)!r} in {session.path}")
    return resolve_leaf(session, leaf_id)


def _window(offset: int, limit: int, total: int) -> tuple[int, int]:
    if offset < 0 or limit < 1:
        raise PituiError("offset must be 0 or more and limit 1 or more")
    start = min(offset, total)
    return start, min(total, start + min(limit, MAX_LIMIT))


def _heading(
    session: Session, leaf: str | None, start: int, count: int, total: int, redact: bool
) -> str:
    redactor = Redactor(redact)
    name = session.tree.name
    lines = [
        f"session {session.header.get('id')}" + (f": {redactor.text(name)}" if name else ""),
        f"cwd: {redactor.text(session.cwd)}",
        f"branch to leaf {leaf}: entries {start}-{start + count - 1} of {total}"
        if count
        else f"branch to leaf {leaf}: no entries from {start} (of {total})",
    ]
    return "\n".join(lines) + "\n"


def _footer(page: Page) -> str:
    if page.next_offset is None:
        return "(end of branch)"
    return f"(more: read on with leaf={page.leaf!r}, offset={page.next_offset})"


def _cut(text: str) -> str:
    if len(text) <= TEXT_CHARS:
        return text
    return text[:TEXT_CHARS] + f"\n[… {len(text) - TEXT_CHARS} more characters not shown]"


class _Cutter:
    """Copies a JSON value with every string longer than `TEXT_CHARS` cut."""

    def __init__(self) -> None:
        self.cut = False

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            if len(value) <= TEXT_CHARS:
                return value
            self.cut = True
            return value[:TEXT_CHARS] + f"[… {len(value) - TEXT_CHARS} more characters]"
        if isinstance(value, dict):
            return {key: self.value(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.value(item) for item in value]
        return value
