"""Markdown blocks simple enough to be rendered without a parser, exactly as markdown-it
renders them: headings and paragraphs of plain text with `code` spans and **strong** words,
and one-line notes in *emphasis*. Most of a large export's blocks that are not fences look
so (headings, tool call titles, notes, plain replies), and markdown-it takes a fifth of a
millisecond for each.

The grammar is strict: a line holds no character that starts Markdown syntax (`*_[]\\<&|~`,
tabs) but in those spans (and `_` within a word), and begins with nothing that starts a
block (`#`, `>`, `+`, `=`, `-` before a space, a `-` or the end, a number and `.` or `)`)
unless it continues a paragraph indented four spaces or more (where no block starts).
Lines of spaces separate paragraphs; newlines at the end are dropped. Anything else goes to
markdown-it."""

from __future__ import annotations

import re

_CODE = r"(?<!`)`[^`\s](?:[^`\n]*[^`\s])?`(?!`)"
_STRONG = r"(?<![^ \n])\*\*[A-Za-z0-9](?:[A-Za-z0-9 ]*[A-Za-z0-9])?\*\*(?![^ \n])"
_PLAIN = r"[^`*_\[\]\\<&|~\n\t]"
_WORD_JOIN = r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])"  # within a word: never emphasis
_BLOCK_START = r"[#>+=\s]|-(?:[\s-]|$)|\d+[.)]"
_TEXT = rf"(?:{_PLAIN}++|{_WORD_JOIN}|{_CODE}|{_STRONG})*+"
_BODY = rf"{_TEXT}(?<=\S)"
_LINE = re.compile(rf"(?!{_BLOCK_START}){_BODY}")
_CONTINUED = re.compile(rf"(?!\s){_BODY}")  # a paragraph's line indented 4 spaces or more
# A paragraph in one match: its first line indented 3 spaces at most, the others any
_PARAGRAPH = re.compile(
    rf"(?: {{0,3}}(?=\S)(?!{_BLOCK_START}){_TEXT})"
    rf"(?:\n(?: {{0,3}}(?=\S)(?!{_BLOCK_START})| {{4,}}(?=\S)){_TEXT})*"
)
_LEADING = re.compile(r"\n +")
# *text*: the opening star before a non-space, the closing one after one, no star between
_EMPHASIS = re.compile(rf"\*((?![\s*])(?:{_PLAIN}++|{_WORD_JOIN}|{_CODE})*+(?<=\S))\*")
# a heading with a simple line, not ending in '#' (a closing sequence markdown-it drops)
_HEADING = re.compile(rf"(#{{1,6}}) ((?!{_BLOCK_START}){_TEXT}(?<=[^\s#]))")
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
        elif text.startswith("*"):
            emphasis = _EMPHASIS.fullmatch(text)
            if emphasis is not None:
                return f"<p><em>{_inline(emphasis[1])}</em></p>\n"
    text = text.rstrip("\n")
    out: list[str] = []
    for chunk in text.split("\n\n"):  # paragraphs with no line break: each in one match
        if "  \n" in chunk or _PARAGRAPH.fullmatch(chunk) is None:
            return _by_lines(text)
        out.append(_paragraph_html(chunk))
    return "".join(out)


def _paragraph_html(chunk: str) -> str:
    """A paragraph whose lines end in one space at most, their spaces dropped."""
    body = chunk.strip(" ").replace(" \n", "\n")
    if "\n " in body:
        body = _LEADING.sub("\n", body)
    return f"<p>{_inline(body)}</p>\n"


def _by_lines(text: str) -> str | None:
    """Headings and paragraphs a line at a time (line breaks, headings between lines)."""
    out: list[str] = []
    paragraph: list[tuple[str, int]] = []  # (line without its spaces, spaces after it)
    for line in text.split("\n"):
        if not _add_line(line, paragraph, out):
            return None
    _add_paragraph(paragraph, out)
    return "".join(out)


def _add_line(line: str, paragraph: list[tuple[str, int]], out: list[str]) -> bool:
    """Add a line to the paragraph, or a heading, or end the paragraph at a line of spaces;
    False if it is not simple. A line's spaces are dropped as markdown-it drops them: before
    it (four before a paragraph's first would be code), after it (two or more make a line
    break)."""
    text = line.lstrip(" ")
    body = text.rstrip(" ")
    if not body:
        _add_paragraph(paragraph, out)
        return True
    indent = len(line) - len(text)
    if indent > 3:
        if not paragraph or _CONTINUED.fullmatch(body) is None:
            return False
    elif body.startswith("#"):
        heading = _heading_html(body)
        if heading is None:
            return False
        _add_paragraph(paragraph, out)
        out.append(heading)
        return True
    elif _LINE.fullmatch(body) is None:
        return False
    paragraph.append((body, len(text) - len(body)))
    return True


def _heading_html(line: str) -> str | None:
    heading = _HEADING.fullmatch(line)
    if heading is None:
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
    if "*" in text:
        return _SPAN.sub(_span_html, escaped)
    if "`" not in text:
        return escaped
    # No strong span: every backtick of a simple line opens or closes a code span, in turn.
    pieces = escaped.split("`")
    pieces[1::2] = [f"<code>{code}</code>" for code in pieces[1::2]]
    return "".join(pieces)


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
