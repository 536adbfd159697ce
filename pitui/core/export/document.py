"""An export as a document: a title, header lines and blocks of Markdown.

The Markdown and the HTML are both made from it, so the page shows what the Markdown says;
a block with a `summary` is collapsible (`<details>`), the one piece of HTML an export uses,
which the HTML renderer writes itself instead of passing raw HTML through.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec

from pitui.core.export.fence import escape_inline, fence_around, fenced
from pitui.core.rows.safe_text import escape_json_c1, visible

CHUNK = 512  # blocks made inert and written at once
_CONTROL_BYTES = bytes([*range(0, 9), *range(11, 32), 127])
# C1 controls and bidi controls (U+061C, U+200E-200F, U+202A-202E, U+2066-2069) in UTF-8:
# each a literal prefix, which the regex engine finds at C speed.
_WIDE_CONTROLS = tuple(
    re.compile(pattern)
    for pattern in (
        rb"\xc2[\x80-\x9f]",
        rb"\xd8\x9c",
        rb"\xe2\x80[\x8e\x8f\xaa-\xae]",
        rb"\xe2\x81[\xa6-\xa9]",
    )
)
_SURROGATE = re.compile("[\ud800-\udfff]")


class Block(msgspec.Struct, gc=False):
    """A piece of an entry: Markdown, or text shown verbatim in a fenced code block (made
    when written: the block keeps the text, not a copy); collapsible when it has a summary.
    (A Struct: made in C, untracked by the collector, for the hundreds of thousands of a
    large export.)"""

    text: str  # Markdown, or the code block's text
    summary: str | None = None
    language: str | None = None  # a code block's language ("" for none); None: Markdown

    @property
    def markdown(self) -> str:
        return self.text if self.language is None else fenced(self.text, self.language)


def code_block(text: str, language: str = "", summary: str | None = None) -> Block:
    """`text` verbatim in a fenced code block."""
    return Block(text, summary, language)


@dataclass(slots=True)
class Document:
    title: str
    header: list[str] = field(default_factory=list)  # Markdown list items
    blocks: list[Block] = field(default_factory=list)
    name: str = ""  # what to name the file after: the session's name or first message
    starts: list[int] = field(default_factory=list)  # the index of each entry's first block
    unit: str = "entries"  # what `starts` counts: entries of a branch, messages of a context


def markdown_parts(document: Document) -> Iterator[bytes]:
    """The Markdown in UTF-8 pieces of a few hundred blocks, each made inert when it is
    asked for: written one after the other, a large export is never all in one string (and
    is encoded once, by the check that it is inert)."""
    head = [f"# {escape_inline(document.title)}"]
    if document.header:
        head.append("\n".join(f"- {line}" for line in document.header))
    blocks = document.blocks
    yield inert_utf8("\n\n".join(head) + ("\n\n" if blocks else "\n"))
    for at in range(0, len(blocks), CHUNK):
        pieces = _pieces(blocks[at : at + CHUNK])
        if at + CHUNK >= len(blocks):
            pieces[-1] = "\n"  # the text's end, not a blank line
        yield inert_utf8("".join(pieces))


def _pieces(blocks: list[Block]) -> list[str]:
    """Each block's Markdown, then a blank line; a code block's text between its fences
    as it is (joined once, with the rest of the chunk)."""
    pieces: list[str] = []
    for block in blocks:
        if block.summary is not None:
            pieces.append(_details(block))
        elif block.language is None:
            pieces.append(block.text)
        else:
            opener, closer = fence_around(block.text, block.language)
            pieces += (opener, block.text, closer)
        pieces.append("\n\n")
    return pieces


def blocks_markdown(blocks: list[Block]) -> str:
    """Blocks alone (no title or header), e.g. one entry for the clipboard."""
    return inert("\n\n".join(_markdowns(blocks))) + "\n"


def _markdowns(blocks: list[Block]) -> list[str]:
    """Each block's Markdown (a comprehension: hundreds of thousands of blocks)."""
    return [b.markdown if b.summary is None else _details(b) for b in blocks]


def _details(block: Block) -> str:
    """A collapsible block: its summary shown, its Markdown under it."""
    summary = escape_inline(block.summary or "")
    return f"<details><summary>{summary}</summary>\n\n{block.markdown}\n\n</details>"


def inert(text: str) -> str:
    """Text safe to write and to show: lone surrogates (JSON has them, UTF-8 cannot hold
    them) become U+FFFD, control characters visible symbols (tab and newline kept). The UTF-8
    bytes are checked first: a C-speed scan, five times faster than the regex on a large
    export that has none."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        text = _SURROGATE.sub("\ufffd", text)
        data = text.encode()
    if _has_controls(data):
        return visible(text)
    return text


def inert_utf8(text: str) -> bytes:
    """`inert(text)` in UTF-8."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return inert(text).encode()
    return visible(text).encode() if _has_controls(data) else data


def is_inert(text: str) -> bool:
    """Whether `inert(text)` is `text` itself: one scan tells it of many blocks at once."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return False
    return not _has_controls(data)


def inert_json(text: str) -> str:
    """JSON text with DEL, C1 and bidi controls escaped (C0 ones already are), as `pitui
    context`."""
    return escape_json_c1(text) if _has_controls(text.encode()) else text


def _has_controls(data: bytes) -> bool:
    """C0 (but tab and newline), DEL, C1 or bidi controls in UTF-8 `data`."""
    return len(data.translate(None, _CONTROL_BYTES)) != len(data) or any(
        pattern.search(data) for pattern in _WIDE_CONTROLS
    )
