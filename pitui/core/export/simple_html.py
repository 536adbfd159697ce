"""Markdown blocks simple enough to be rendered without a parser, exactly as markdown-it
renders them: headings and paragraphs of plain text with `code` spans and **strong** words.
Most of a large export's blocks that are not fences look so (headings, tool call titles,
plain replies), and markdown-it takes a fifth of a millisecond for each.

The grammar is strict: a line holds no character that starts Markdown syntax (`*_[]\\<&|~`,
tabs) but in those spans (and `_` within a word), and begins with nothing that starts a
block (`#`, `>`, `-`, `+`, `=`, a number and `.` or `)`) nor ends with a space. Anything else
goes to markdown-it."""

from __future__ import annotations

import re

_CODE = r"(?<!`)`[^`\s](?:[^`\n]*[^`\s])?`(?!`)"
_STRONG = r"(?<![^ \n])\*\*[A-Za-z0-9](?:[A-Za-z0-9 ]*[A-Za-z0-9])?\*\*(?![^ \n])"
_PLAIN = r"[^`*_\[\]\\<&|~\n\t]"
_WORD_JOIN = r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])"  # within a word: never emphasis
_LINE = re.compile(rf"(?![#>+\-=\s]|\d+[.)])(?:{_PLAIN}++|{_WORD_JOIN}|{_CODE}|{_STRONG})*+(?<=\S)")
_HEADING = re.compile(r"(#{1,6}) (.*[^#])")
_SPAN = re.compile(rf"({_CODE}|{_STRONG})")


def simple_html(text: str) -> str | None:
    """The HTML of `text` if it is a simple block, else None."""
    if "\n" not in text and not text.startswith("#") and _LINE.fullmatch(text):
        return f"<p>{_inline(text)}</p>\n"  # one line, the most usual: made quick
    out: list[str] = []
    for chunk in text.split("\n\n"):
        if not _add_chunk(chunk, out):
            return None
    return "".join(out)


def _add_chunk(chunk: str, out: list[str]) -> bool:
    """Headings (one a line) and paragraphs between them, their lines' spaces dropped as
    markdown-it drops them: before a line (four before a paragraph's first would be code),
    after one (two or more make a line break)."""
    paragraph: list[tuple[str, int]] = []  # (line without its spaces, spaces after it)
    for line in chunk.split("\n"):
        heading = _HEADING.fullmatch(line) if line.startswith("#") else None
        if heading is not None and _LINE.fullmatch(heading[2]):
            _add_paragraph(paragraph, out)
            level = len(heading[1])
            out.append(f"<h{level}>{_inline(heading[2])}</h{level}>\n")
            continue
        text = line.lstrip(" ")
        body = text.rstrip(" ")
        if (not paragraph and len(line) - len(text) > 3) or _LINE.fullmatch(body) is None:
            return False
        paragraph.append((body, len(text) - len(body)))
    _add_paragraph(paragraph, out)
    return True


def _add_paragraph(lines: list[tuple[str, int]], out: list[str]) -> None:
    if not lines:
        return
    if all(spaces < 2 for _, spaces in lines[:-1]):  # no line break: one piece of text
        body = _inline("\n".join(line for line, _ in lines))
    else:
        html = [_inline(lines[0][0])]
        for (line, _), (_, spaces_before) in zip(lines[1:], lines, strict=False):
            html.append("<br />\n" if spaces_before >= 2 else "\n")
            html.append(_inline(line))
        body = "".join(html)
    out.append(f"<p>{body}</p>\n")
    lines.clear()


def _inline(text: str) -> str:
    if "`" not in text and "*" not in text:
        return _escape(text)
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
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
