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
    if "\n" not in text:  # one line, the most usual: made quick
        if text.startswith("#"):
            heading = _heading_html(text)
            if heading is not None:
                return heading
        elif _LINE.fullmatch(text):
            return f"<p>{_inline(text)}</p>\n"
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
        heading = _heading_html(line) if line.startswith("#") else None
        if heading is not None:
            _add_paragraph(paragraph, out)
            out.append(heading)
            continue
        text = line.lstrip(" ")
        body = text.rstrip(" ")
        if (not paragraph and len(line) - len(text) > 3) or _LINE.fullmatch(body) is None:
            return False
        paragraph.append((body, len(text) - len(body)))
    _add_paragraph(paragraph, out)
    return True


def _heading_html(line: str) -> str | None:
    heading = _HEADING.fullmatch(line)
    if heading is None or _LINE.fullmatch(heading[2]) is None:
        return None
    level = len(heading[1])
    return f"<h{level}>{_inline(heading[2])}</h{level}>\n"


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
    """Escaped first: escaping changes no backtick, star, space or letter, so the spans
    are found in the escaped text as in the text."""
    escaped = _escape(text)
    if "`" not in text and "*" not in text:
        return escaped
    return _SPAN.sub(_span_html, escaped)


def _span_html(match: re.Match[str]) -> str:
    span = match[0]
    if span.startswith("`"):
        return f"<code>{span[1:-1]}</code>"
    return f"<strong>{span[2:-2]}</strong>"


def _escape(text: str) -> str:
    """markdown-it's escapeHtml: &, <, > and double quotes."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
