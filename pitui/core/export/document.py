"""An export as a document: a title, header lines and blocks of Markdown.

The Markdown and the HTML are both made from it, so the page shows what the Markdown says;
a block with a `summary` is collapsible (`<details>`), the one piece of HTML an export uses,
which the HTML renderer writes itself instead of passing raw HTML through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pitui.core.export.fence import escape_inline
from pitui.core.rows.safe_text import visible


@dataclass(slots=True)
class Block:
    """Markdown for one piece of an entry; collapsible when it has a summary."""

    markdown: str
    summary: str | None = None


@dataclass(slots=True)
class Document:
    title: str
    header: list[str] = field(default_factory=list)  # Markdown list items
    blocks: list[Block] = field(default_factory=list)
    name: str = ""  # what to name the file after: the session's name or first message


def to_markdown(document: Document) -> str:
    parts = [f"# {escape_inline(document.title)}"]
    if document.header:
        parts.append("\n".join(f"- {line}" for line in document.header))
    for block in document.blocks:
        parts.append(_block_markdown(block))
    return visible("\n\n".join(parts)) + "\n"


def _block_markdown(block: Block) -> str:
    if block.summary is None:
        return block.markdown
    summary = escape_inline(block.summary)
    return f"<details><summary>{summary}</summary>\n\n{block.markdown}\n\n</details>"
