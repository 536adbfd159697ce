"""A large HTML export as pages a browser opens in seconds: an index page, and beside it a
folder of parts, each a run of whole entries, linked to the index and to each other.

One page of a 100,000-entry branch is 92 MB with 830,000 elements: Chromium parses all of it
(folded text too) before its first frame, and took 4 minutes. A page of 2 MB takes under
2 s. So past `PART_CHARS` characters of blocks (or `PART_ENTRIES` entries) the export is cut
at entry boundaries; nothing is left out (the parts hold every block the one page would),
and a small export stays one page. Like a browser's "Web page, complete" (`page.html` and
`page_files/`), the index `name.html` goes with its folder `name-parts/`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePath
from urllib.parse import quote

from pitui.core.export.document import Block, Document, inert
from pitui.core.export.fence import inline_code
from pitui.core.export.html import blocks_html, page_end, page_head

PART_CHARS = 2_000_000  # about 2 MB of HTML: Chromium draws it in under 2 s
PART_ENTRIES = 4_000  # a part of many tiny entries stays small in elements
PREVIEW_CHARS = 100
_USER_HEADING = re.compile(r"### (?:\d+\. )?User\b")


@dataclass(frozen=True, slots=True)
class Part:
    start: int  # its first block
    end: int  # past its last block
    first: int  # its first entry, numbered from 1
    last: int  # its last entry


def split_parts(document: Document) -> list[Part]:
    """The document cut before an entry that would take a part past `PART_CHARS` characters
    of blocks or `PART_ENTRIES` entries (a part holds one entry at least)."""
    blocks, starts = document.blocks, document.starts or [0]
    bounds = [*starts, len(blocks)]
    parts: list[Part] = []
    start_entry, size = 0, 0
    for entry in range(len(starts)):
        weight = _weight(blocks, bounds[entry], bounds[entry + 1])
        count = entry - start_entry
        if count and (size + weight > PART_CHARS or count >= PART_ENTRIES):
            parts.append(Part(bounds[start_entry], bounds[entry], start_entry + 1, entry))
            start_entry, size = entry, 0
        size += weight
    parts.append(Part(bounds[start_entry], len(blocks), start_entry + 1, len(starts)))
    return parts


def _weight(blocks: list[Block], start: int, end: int) -> int:
    return sum(len(block.text) for block in blocks[start:end])


class PagedExport:
    """The pages of an export too large for one: `index(name)` is the page written as
    `name`, `part_pages(name)` the parts in its folder (`folder_name(name)`), each a
    relative path and its UTF-8 pieces, made as they are read. Write the parts first:
    `progress` counts their blocks, `done` is called once the index is made."""

    def __init__(
        self,
        document: Document,
        parts: list[Part],
        progress: Callable[[int, int], None] | None = None,
        done: Callable[[], None] | None = None,
    ) -> None:
        self.document, self.parts = document, parts
        self.progress, self.done = progress, done

    @staticmethod
    def folder_name(index_name: str) -> str:
        return PurePath(index_name).stem + "-parts"

    def part_name(self, number: int) -> str:
        return f"part-{number:0{max(3, len(str(len(self.parts))))}d}.html"

    def index(self, index_name: str) -> Iterator[bytes]:
        document, folder = self.document, self.folder_name(index_name)
        unit, count = document.unit, len(document.starts)
        note = (
            f"**Parts:** this export's {count:,} {unit} are in {len(self.parts)} parts, in the "
            f"folder {inline_code(folder)} beside this file (keep them together to share it; "
            "the Markdown export is one file)"
        )
        yield page_head(document.title, [*document.header, note]).encode()
        items = ["<ol>"]
        for number, part in enumerate(self.parts, 1):
            href = _href(f"{folder}/{self.part_name(number)}")
            label = f"{unit.capitalize()} {part.first:,}–{part.last:,}"
            preview = self._preview(part)
            items.append(
                f'<li><a href="{href}">{label}</a>{": " + _text(preview) if preview else ""}</li>'
            )
        items.append("</ol>")
        yield ("\n".join(items) + "\n" + page_end()).encode()
        if self.done is not None:
            self.done()

    def part_pages(self, index_name: str) -> Iterator[tuple[str, Iterator[bytes]]]:
        folder = self.folder_name(index_name)
        for number in range(1, len(self.parts) + 1):
            yield f"{folder}/{self.part_name(number)}", self._part(number, index_name)

    def _part(self, number: int, index_name: str) -> Iterator[bytes]:
        document, part = self.document, self.parts[number - 1]
        where = (
            f"**Part {number} of {len(self.parts)}:** {document.unit} {part.first:,}–"
            f"{part.last:,} of {len(document.starts):,}"
        )
        nav = self._nav(number, index_name)
        yield page_head(document.title, [where], nav).encode()
        blocks = document.blocks[part.start : part.end]
        total = len(document.blocks)
        for piece in blocks_html(blocks, self.progress, part.start, total):
            yield piece.encode()
        yield page_end(nav).encode()

    def _nav(self, number: int, index_name: str) -> str:
        links = [f'<a href="{_href("../" + index_name)}">Contents</a>']
        if number > 1:
            links.append(f'<a href="{_href(self.part_name(number - 1))}">Previous part</a>')
        if number < len(self.parts):
            links.append(f'<a href="{_href(self.part_name(number + 1))}">Next part</a>')
        return "<nav>" + " · ".join(links) + "</nav>"

    def _preview(self, part: Part) -> str:
        """The first line of the part's first user message, cut to `PREVIEW_CHARS`."""
        blocks = self.document.blocks
        for at in range(part.start, part.end - 1):
            if _USER_HEADING.match(blocks[at].text) and blocks[at + 1].language is None:
                text = blocks[at + 1].text.strip()
                line = text.split("\n", 1)[0].strip()
                return line if len(line) <= PREVIEW_CHARS else line[:PREVIEW_CHARS] + "…"
        return ""


def paged_export(
    document: Document,
    progress: Callable[[int, int], None] | None = None,
    done: Callable[[], None] | None = None,
) -> PagedExport | None:
    """The export's pages, or None when it fits one page."""
    parts = split_parts(document)
    return PagedExport(document, parts, progress, done) if len(parts) > 1 else None


def _href(path: str) -> str:
    """A relative link to a file pitui names: every character but `/` percent-encoded."""
    return html.escape(quote(path, safe="/"))


def _text(text: str) -> str:
    return html.escape(inert(text))
