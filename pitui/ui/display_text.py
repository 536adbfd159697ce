"""How values and untrusted text are shown: ages, stamps, paths, counts, sizes, inert lines."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from rich.style import Style
from rich.text import Span, Text

from pitui.core.format.timestamps import utc_minutes
from pitui.core.rows.safe_text import one_line, visible
from pitui.core.size_text import human_size as human_size  # every screen's


def age(then: datetime | None, now: datetime) -> str:
    """Pi's short age: now, 5m, 3h, 2d, 4w, 5mo, 1y."""
    if then is None:
        return ""
    seconds = (now - _aware(then)).total_seconds()
    minutes = int(seconds // 60)
    if minutes < 1:
        return "now"
    if minutes < 60:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 24:
        return f"{hours}h"
    days = hours // 24
    if days < 7:
        return f"{days}d"
    if days < 30:
        return f"{days // 7}w"
    if days < 365:
        return f"{days // 30}mo"
    return f"{days // 365}y"


def to_datetime(value: object) -> datetime | None:
    """A datetime from a datetime, epoch milliseconds or an ISO string."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return _aware(value)
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(value / 1000, UTC)
        except (OverflowError, OSError, ValueError):  # JavaScript's years reach 275760
            return None
    try:
        return _aware(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        return None


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def stamp(ms: float | None) -> str:
    """Unix milliseconds as `YYYY-MM-DD HH:MM UTC` (any JavaScript time); "-" for none."""
    return "-" if ms is None else utc_minutes(ms)


def tilde(path: str, home: str | None = None) -> str:
    """The home folder shortened to `~`."""
    home = home if home is not None else os.path.expanduser("~")
    if home and home != "/" and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def line(text: object, style: str = "") -> Text:
    """Untrusted text as one inert line (no markup, controls visible)."""
    return Text(one_line(str(text)), style=style, no_wrap=True, overflow="ellipsis")


def block(text: object, style: str = "") -> Text:
    """Untrusted multi-line text, inert; a word longer than the width is folded, not cut."""
    return Text(visible(str(text)), style=style, overflow="fold")


def middle_ellipsis(text: str, width: int) -> str:
    """`text` in at most `width` characters, its middle replaced by "…" (a path keeps both
    its folder and its file name)."""
    if len(text) <= width:
        return text
    keep = max(1, width - 1)
    head = keep // 2
    return text[:head] + "…" + text[len(text) - (keep - head) :]


def count(value: float | None) -> str:
    """`value` with thousands separators (a token total may be a JavaScript Infinity)."""
    return "-" if value is None else f"{value:,}"


def cost(value: float | None) -> str:
    return "-" if not value else f"${value:.4f}" if value < 1 else f"${value:.2f}"


def in_text_colour(text: Text) -> None:
    """Draw every part of `text` in the row's own text colour, keeping bold, italic and the
    like: for a highlighted row (the cursor, a search's match), where a part's colour on the
    highlight's background fell to 2.9-4:1 (2.5:1 in a 256-colour terminal)."""
    text.spans = [Span(s.start, s.end, _colourless(s.style)) for s in text.spans]


def _colourless(style: str | Style) -> Style:
    style = Style.parse(style) if isinstance(style, str) else style
    return Style(
        bold=style.bold, italic=style.italic, underline=style.underline, strike=style.strike
    )
