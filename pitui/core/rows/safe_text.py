"""Making untrusted session text inert before it reaches a terminal."""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, and C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_C1 = re.compile(r"[\x7f-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode Control Pictures: ESC -> ␛
    if code == 0x7F:
        return "\u2421"
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """Control characters shown as visible symbols; tabs and newlines kept."""
    return _CONTROL.sub(_picture, text)


def one_line(text: str) -> str:
    """For single-line displays: newlines and tabs become spaces, controls visible."""
    return _CONTROL_LINE.sub(lambda m: " " if m.group() in "\n\r\t" else _picture(m), text)


def escape_json_c1(dumped: str) -> str:
    """JSON text with DEL and C1 controls escaped (json.dumps escapes only C0)."""
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
