"""The documents of an export: a branch entry by entry, or the exact context of a leaf."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pitui.core.export.document import Block, Document
from pitui.core.export.entries import entry_blocks, message_heading
from pitui.core.export.fence import escape_inline, inline_code
from pitui.core.export.message_markdown import MessageRenderer
from pitui.core.export.options import DEFAULT_MAX_TOOL_LINES
from pitui.core.export.redactor import Redactor
from pitui.core.export.source import entry_raws
from pitui.core.export.totals import Totals
from pitui.core.format.entry_types import EntryType
from pitui.core.session.collector import collector_paused
from pitui.core.session.context import build_context
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session

Progress = Callable[[int, int], None]

TITLE_LENGTH = 80


def resolve_leaf(session: Session, leaf_id: str | None) -> Entry | None:
    return session.tree.get(leaf_id) if leaf_id is not None else session.tree.leaf


class _Source(NamedTuple):
    """What either document is built from: the leaf resolved, the redactor chosen."""

    session: Session
    leaf: Entry | None
    redactor: Redactor
    renderer: MessageRenderer
    progress: Progress | None


def document(
    session: Session,
    leaf_id: str | None = None,
    *,
    context: bool = False,
    redactor: Redactor | None = None,
    max_tool_lines: int = DEFAULT_MAX_TOOL_LINES,
    progress: Progress | None = None,
) -> Document:
    """Every entry from the root to the leaf (default: the session's leaf), in order, or
    with `context` exactly the messages of the leaf's context (`pitui context`), numbered;
    `progress(done, total)` counts the entries or the messages."""
    redactor = redactor or Redactor(False)
    leaf = resolve_leaf(session, leaf_id)
    source = _Source(session, leaf, redactor, MessageRenderer(max_tool_lines), progress)
    return _context_document(source) if context else _branch_document(source)


def _branch_document(source: _Source) -> Document:
    session, leaf, redactor, renderer, progress = source
    path = session.tree.path_to(leaf.id) if leaf else []
    totals = Totals()
    blocks: list[Block] = []
    starts: list[int] = []
    with collector_paused():  # a block an entry: the collector would walk them again and again
        for done, (_, raw) in enumerate(entry_raws(path)):
            if progress is not None:
                progress(done, len(path))
            raw = redactor.entry(raw)
            if raw.get("type") == EntryType.MESSAGE:
                totals.add(raw.get("message"))
            starts.append(len(blocks))
            blocks.extend(entry_blocks(raw, renderer))
    header = _session_header(session, redactor, leaf, f"{len(path):,} entries on the branch")
    title = _title(session, redactor, totals)
    return Document(title, header + totals.header(), blocks, name=title, starts=starts)


def _context_document(source: _Source) -> Document:
    session, leaf, redactor, renderer, progress = source
    context = build_context(session.tree, leaf.id if leaf else None)
    totals = Totals()
    blocks: list[Block] = []
    starts: list[int] = []
    for number, message in enumerate(context.messages, 1):
        if progress is not None:
            progress(number - 1, len(context.messages))
        message = redactor.value(message)
        totals.add(message)
        starts.append(len(blocks))
        blocks.extend(
            renderer.blocks(message, message_heading(message).replace("### ", f"### {number}. ", 1))
        )
    model = context.settings.get("model")
    model_text = (
        f"{model.get('provider')}/{model.get('modelId')}" if isinstance(model, dict) else "none"
    )
    count = len(context.messages)
    summary = (
        f"**Context:** exactly the {count:,} message{'s' * (count != 1)} sent to the model from "
        f"this leaf (Pi's buildSessionContext), about {context.tokens:,} tokens (Pi's estimate)"
    )
    settings = (
        f"**Model:** {inline_code(redactor.text(model_text))}, thinking "
        f"{inline_code(str(context.settings.get('thinkingLevel')))}"
    )
    header = _session_header(
        session, redactor, leaf, f"{len(context.path):,} entries on the branch"
    )
    title = _title(session, redactor, totals)
    return Document(
        "Context: " + title,
        [summary, settings, *header],
        blocks,
        name=title,
        starts=starts,
        unit="messages",
    )


def _session_header(
    session: Session, redactor: Redactor, leaf: Entry | None, size: str
) -> list[str]:
    created = session.header.get("timestamp")
    lines = [
        f"**Session:** {inline_code(session.id)}",
        f"**Folder:** {inline_code(redactor.text(session.cwd))}",
    ]
    if created is not None:
        lines.append(f"**Created:** {escape_inline(str(created))}")
    lines.append(f"**Leaf:** {inline_code(leaf.id) if leaf else 'none'} ({size})")
    return lines


def _title(session: Session, redactor: Redactor, totals: Totals) -> str:
    name = session.tree.name
    title = redactor.text(name) if name else totals.first_user
    if not title:
        return f"Session {session.id}"
    line = " ".join(title.split())
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1] + "…"


def session_title(session: Session, leaf_id: str | None = None) -> str:
    """What an export is named after: the session's name, or the first user message of the
    branch, on one line (without reading more than the entries up to that message)."""
    if session.tree.name:
        return session.tree.name
    leaf = resolve_leaf(session, leaf_id)
    for entry in session.tree.path_to(leaf.id) if leaf else []:
        if entry.role == "user":
            totals = Totals()
            totals.add(entry.message)
            if totals.first_user:
                return " ".join(totals.first_user.split())[:TITLE_LENGTH]
    return f"session-{session.id}"
