"""While a large session loads: the end of its active branch, read from the end of the file
in a moment, stands where the tree will be."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from pitui.core.rows.tail_rows import tail_rows
from pitui.core.session.tail import tail_entries

PEEK_MIN_BYTES = 4 * 1024 * 1024  # smaller files load before a peek would show
TAG_STYLES = {"user": "bold cyan", "assistant": "bold green"}
SHOWN_ROWS = 100  # more than any screen is tall; the view starts at the last


@dataclass
class TailPeeked(Message):
    """The rows of the active branch's end, read from the end of the file."""

    rows: list[tuple[str, str, str, str]]


class SessionTail(Screen[None]):
    """Mixed into `SessionScreen`: its load worker calls `peek()` before reading the whole
    file (so the peek is on screen first), and `end_peek()` runs once the tree is built."""

    path: Path
    live: object

    def peek(self) -> None:
        """Worker thread: post the branch's end of a large file."""
        try:
            if self.path.stat().st_size < PEEK_MIN_BYTES:
                return
            rows = tail_rows(tail_entries(self.path))
        except Exception:  # only a preview: the load itself says what is wrong with the file
            return
        if rows:
            self.post_message(TailPeeked(rows))

    def end_peek(self) -> None:
        self.remove_class("-peeking")

    def on_tail_peeked(self, message: TailPeeked) -> None:
        if self.live is not None:
            return  # the whole tree came first
        text = Text(no_wrap=True, overflow="ellipsis")  # a row a line, as in the tree
        text.append("The end of the active branch, read from the end of the file; ", "dim")
        text.append("the whole tree is loading.\n\n", "dim")
        for tag, tag_style, body, _ in message.rows[-SHOWN_ROWS:]:
            text.append("• " + tag, TAG_STYLES.get(tag_style, "dim"))
            text.append(body + "\n")
        self.query_one("#session-tail-text", Static).update(text)
        self.add_class("-peeking")
        self.query_one("#panes").loading = False  # the preview covers them instead
        tail = self.query_one("#session-tail")
        self.call_after_refresh(tail.scroll_end, animate=False)
