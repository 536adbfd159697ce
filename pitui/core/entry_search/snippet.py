"""A one-line snippet of an entry's text around a match, safe for a terminal.

Cut at grapheme boundaries (a flag, an emoji sequence or a letter with its marks is never
split), whitespace runs shown as one space, controls, bidi controls and lone surrogates made
visible (`safe_text.one_line`), so right-to-left or multi-byte text cannot reorder or break
the line it is printed on.
"""

from __future__ import annotations

import functools
from typing import Any

from pitui.core.format.jsvalues import JS_SPACE_RUN
from pitui.core.rows.safe_text import one_line

WIDTH = 100  # graphemes in a snippet
BEFORE = 30  # of them before the match, when the match is not near the start
_READ = 4  # characters looked at per grapheme wanted (marks, joiners)
ELLIPSIS = "…"


def snippet(text: str, span: tuple[int, int], width: int = WIDTH) -> str:
    """About `width` graphemes of `text` around `span` (the match), `…` where cut, safe for
    a terminal."""
    return one_line(cut(text, span, width))


def cut(text: str, span: tuple[int, int], width: int = WIDTH) -> str:
    """The text of `snippet` as the session holds it: controls, bidi controls and lone
    surrogates kept (for JSON, which writes them as JSON.stringify does)."""
    start, end = span
    low, high = max(0, start - BEFORE * _READ), min(len(text), end + width * _READ)
    left = _graphemes(_squeeze(text[low:start]))
    right = _graphemes(_squeeze(text[start:high]))
    if low > 0 and left:
        left = left[1:]  # the window's first grapheme may be the end of a longer one
    if high < len(text) and right:
        right = right[:-1]  # and its last the start of one
    cut_left = low > 0 or len(left) > BEFORE
    left = left[-BEFORE:]
    room = width - len(left)
    cut_right = high < len(text) or len(right) > room
    shown = "".join(left).lstrip(" ") + "".join(right[:room])
    return (ELLIPSIS if cut_left else "") + shown.rstrip(" ") + (ELLIPSIS if cut_right else "")


def _squeeze(text: str) -> str:
    return JS_SPACE_RUN.sub(" ", text)


def _graphemes(text: str) -> list[str]:
    """The grapheme clusters of squeezed text: in ASCII each character is one (the only
    ASCII cluster of two, CR LF, was squeezed to a space)."""
    if text.isascii():
        return list(text)
    return _grapheme_pattern().findall(text)


@functools.cache
def _grapheme_pattern() -> Any:
    import regex  # deferred: regex, ~8 ms, only for a `re:` query

    return regex.compile(r"\X")
