"""A dialog's body: paragraphs that wrap, and file names or folders on a line of their own,
cut in the middle to the dialog's width (never folded mid-name onto the next line)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Label

from pitui.core.rows.safe_text import inert_path, one_line
from pitui.ui.display_text import block, middle_ellipsis


@dataclass(frozen=True, slots=True)
class PathText:
    """A path or file name shown on one line after `prefix` (kept whole)."""

    path: str
    prefix: str = ""


Body = str | Sequence[str | PathText]


class PathLine(Widget):
    """One line: the prefix, then the path with its middle replaced by "…" when the width
    the dialog has now is too small (both ends stay: the folder's start, the file's name)."""

    DEFAULT_CSS = "PathLine { height: 1; width: 100%; }"

    def __init__(self, part: PathText, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.prefix = one_line(part.prefix)
        self.path = inert_path(part.path)

    def render(self) -> Text:
        room = max(1, self.content_size.width - len(self.prefix))
        text = self.prefix + middle_ellipsis(self.path, room)
        return Text(text, no_wrap=True, overflow="ellipsis", end="")


def body_widgets(body: Body) -> list[Widget]:
    """The widgets of a body: a Label per paragraph, a `PathLine` per path."""
    parts = [body] if isinstance(body, str) else body
    return [
        PathLine(part, classes="dialog-body dialog-path")
        if isinstance(part, PathText)
        else Label(block(part), classes="dialog-body")
        for part in parts
    ]
