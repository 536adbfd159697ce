"""Exporting a session: a branch or a leaf's context as Markdown, HTML or a Pi session file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pitui.core.changes.file_messages import no_entry
from pitui.core.errors import PituiError
from pitui.core.export.build import document as build_document
from pitui.core.export.build import resolve_leaf
from pitui.core.export.document import blocks_markdown, inert_json, markdown_parts
from pitui.core.export.entries import entry_blocks
from pitui.core.export.jsonl import MISSING, branched_session_lines
from pitui.core.export.message_markdown import MessageRenderer
from pitui.core.export.options import ExportOptions
from pitui.core.export.redactor import Redactor
from pitui.core.export.source import entry_raws
from pitui.core.export.steps import Progress, Steps
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import js_truthy
from pitui.core.session.session import Session

if TYPE_CHECKING:
    from pitui.core.export.html_pages import PagedExport


@dataclass(slots=True)
class ExportResult:
    """An export: its UTF-8 text comes in `parts`, made as they are read, once (write them
    one after the other), or whole as `text` (kept). An HTML export too large for a browser
    to open in seconds also has `paged`: the same as pages, to write to a file instead."""

    parts: Iterator[bytes]
    redacted: Counter[str]
    name: str  # the session's name or first user message, to name the file after
    _text: str | None = None
    paged: PagedExport | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = b"".join(self.parts).decode()
        return self._text


def export_session(
    session: Session,
    leaf_id: str | None = None,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
) -> ExportResult:
    """The export of the branch ending at `leaf_id` (default: the session's leaf).

    `progress(done, 100)`: how far the export is, in percent (the last steps are made as
    `parts` are read)."""
    options = options or ExportOptions()
    if leaf_id is not None and session.tree.get(leaf_id) is None:
        raise PituiError(no_entry(leaf_id, session.path))
    redactor = Redactor(options.redact)
    if options.format == "jsonl":
        if options.context:
            raise PituiError("--context has no jsonl form; `pitui context --json` prints it")
        lines = jsonl_lines(session, leaf_id, redactor)
        name = redactor.text(session.tree.name or "") or f"session-{session.id}"
        return ExportResult(iter([inert_json("".join(lines)).encode()]), redactor.counts, name)
    html = options.format == "html"
    steps = Steps(progress, 2 if html else 1)  # turning Markdown into HTML is a second pass
    document = build_document(
        session,
        leaf_id,
        context=options.context,
        redactor=redactor,
        max_tool_lines=options.max_tool_lines,
        progress=steps.phase(0),
    )
    paged = None
    if html:
        from pitui.core.export.html import html_parts  # deferred: markdown-it, only for HTML
        from pitui.core.export.html_pages import paged_export

        parts: Iterator[bytes] = (part.encode() for part in html_parts(document, steps.phase(1)))
        paged = paged_export(document, steps.phase(1), steps.done)
    else:
        parts = markdown_parts(document)
    return ExportResult(_then(parts, steps.done), redactor.counts, document.name, paged=paged)


def _then(parts: Iterable[bytes], done: Callable[[], None]) -> Iterator[bytes]:
    yield from parts
    done()


def entry_markdown(raw: dict[str, Any], *, redact: bool = False) -> str:
    """One entry's Markdown, as in a branch export (tool output not cut)."""
    blocks = entry_blocks(Redactor(redact).entry(raw), MessageRenderer(max_tool_lines=0))
    return blocks_markdown(blocks)


def jsonl_lines(session: Session, leaf_id: str | None, redactor: Redactor) -> list[str]:
    leaf = resolve_leaf(session, leaf_id)
    path = session.tree.path_to(leaf.id) if leaf else []
    raws = [redactor.entry(raw) for _, raw in entry_raws(path)]
    return branched_session_lines(
        raws,
        [(t, redactor.value(label), when) for t, label, when in session_labels(session)],
        cwd=redactor.text(session.cwd),
        parent_session=redactor.path(str(session.path), session.cwd),
    )


def session_labels(session: Session) -> list[tuple[Any, Any, Any]]:
    """Pi's labelsById with their timestamps: each label entry in file order sets (a truthy
    label) or clears its target, a target set again moving to the end."""
    labels: dict[Any, tuple[Any, Any]] = {}
    label = EntryType.LABEL  # bound once: the test runs per entry
    entries = [e for e in session.tree.entries if e.type == label]
    for _, raw in entry_raws(entries):
        target = raw.get("targetId")
        if not _hashable(target):
            continue
        if js_truthy(raw.get("label")):
            labels[target] = (raw["label"], raw.get("timestamp", MISSING))
        else:
            labels.pop(target, None)
    return [(target, label, when) for target, (label, when) in labels.items()]


def _hashable(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None
