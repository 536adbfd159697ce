"""Markdown blocks simple enough to be rendered without a parser, exactly as markdown-it
renders them: a heading or paragraphs of plain text with `code` spans and **strong** words.
Most of a large export's blocks that are not fences look so (headings, tool call titles,
plain replies), and markdown-it takes a fifth of a millisecond for each.

The grammar is strict: a line holds no character that starts Markdown syntax (`*_[]\\<&|~`,
tabs) but in those spans (and `_` within a word), and begins with nothing that starts a
block (`#`, `>`, `-`, `+`, `=`, a number and `.` or `)`) nor ends with a space. Anything else
goes to markdown-it."""

from __future__ import annotations

import html
import re

_CODE = r"(?<!`)`[^`\s](?:[^`\n]*[^`\s])?`(?!`)"
_STRONG = r"(?<![^ \n])\*\*[A-Za-z0-9](?:[A-Za-z0-9 ]*[A-Za-z0-9])?\*\*(?![^ \n])"
_PLAIN = r"[^`*_\[\]\\<&|~\n\t]"
_WORD_JOIN = r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])"  # within a word: never emphasis
_LINE = re.compile(rf"(?![#>+\-=\s]|\d+[.)])(?:{_PLAIN}|{_WORD_JOIN}|{_CODE}|{_STRONG})*(?<=\S)")
_HEADING = re.compile(r"(#{1,6}) (.*[^#])")
_SPAN = re.compile(rf"({_CODE}|{_STRONG})")


def simple_html(text: str) -> str | None:
    """The HTML of `text` if it is a simple block, else None."""
    heading = _HEADING.fullmatch(text)
    if heading is not None:
        level, content = len(heading[1]), heading[2]
        if _LINE.fullmatch(content) is None:
            return None
        return f"<h{level}>{_inline(content)}</h{level}>\n"
    paragraphs = text.split("\n\n")
    for paragraph in paragraphs:
        if not all(_LINE.fullmatch(line) for line in paragraph.split("\n")):
            return None
    return "".join(f"<p>{_inline(paragraph)}</p>\n" for paragraph in paragraphs)


def _inline(text: str) -> str:
    pieces = _SPAN.split(text)
    out = []
    for at, piece in enumerate(pieces):
        if at % 2 == 0:
            out.append(_escape(piece))
        elif piece.startswith("`"):
            out.append(f"<code>{_escape(piece[1:-1])}</code>")
        else:
            out.append(f"<strong>{_escape(piece[2:-2])}</strong>")
    return "".join(out)


def _escape(text: str) -> str:
    """markdown-it's escapeHtml: &, <, > and double quotes."""
    return html.escape(text, quote=False).replace('"', "&quot;")
