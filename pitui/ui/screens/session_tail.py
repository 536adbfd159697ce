"""While a large session loads: the end of its active branch, read from the end of the file
in a moment, stands where the tree will be."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from pitui.core.rows.tail_rows import tail_rows
from pitui.core.session.tail import tail_entries

PEEK_MIN_BYTES = 4 * 1024 * 1024  # smaller files load before a peek would show
TAG_STYLES = {"user": "bold cyan", "assistant": "bold green"}
SHOWN_ROWS = 100  # more than any screen is tall; the view starts at the last

TailRow = tuple[str, str, str, str]


@dataclass
class TailPeeked(Message):
    """The rows of the active branch's end, read from the end of the file."""

    rows: list[TailRow]


def peek(path: Path) -> list[TailRow]:
    """Worker thread: the rows of the branch's end of a large file ([]: a small file, or one
    whose end cannot be read; the load itself says what is wrong with the file)."""
    try:
        if path.stat().st_size < PEEK_MIN_BYTES:
            return []
        return tail_rows(tail_entries(path))
    except Exception:  # only a preview
        return []


class TailPreview(VerticalScroll, can_focus=False):
    """The peeked rows, a row a line as in the tree; a preview: no keys, no stop on Tab."""

    def compose(self) -> ComposeResult:
        yield Static(id="session-tail-text")

    def show(self, rows: list[TailRow]) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("The end of the active branch, read from the end of the file; ", "dim")
        text.append("the whole tree is loading.\n\n", "dim")
        for tag, tag_style, body, _ in rows[-SHOWN_ROWS:]:
            text.append("• " + tag, TAG_STYLES.get(tag_style, "dim"))
            text.append(body + "\n")
        self.query_one("#session-tail-text", Static).update(text)
        self.call_after_refresh(self.scroll_end, animate=False)
