"""Making untrusted session text inert before it reaches a terminal."""

from __future__ import annotations

import re

# Bidirectional formatting controls: they can make a line read differently than it is
# (trojan source), so they are shown rather than obeyed.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Lone UTF-16 halves: JSON.parse keeps them (a string cut inside an emoji), but no terminal
# encoding can carry them.
_SURROGATE = "\ud800-\udfff"
# C0 controls except tab and newline, DEL, C1 controls, bidi controls and lone surrogates.
_CONTROL = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI}{_SURROGATE}]")
_CONTROL_LINE = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI}{_SURROGATE}]")
_JSON_UNSAFE = re.compile(f"[\\x7f-\\x9f{_BIDI}{_SURROGATE}]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode Control Pictures: ESC -> ␛
    if code == 0x7F:
        return "\u2421"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"  # as a UTF-8 encoder that replaces what it cannot write
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """Control characters shown as visible symbols; tabs and newlines kept."""
    return _CONTROL.sub(_picture, text)


def inert_path(text: str) -> str:
    """A file name or path on one line, every control visible (a newline in a name is `␊`,
    not a space that would name another file)."""
    return _CONTROL_LINE.sub(_picture, text)


def one_line(text: str) -> str:
    """For single-line displays: newlines and tabs become spaces, controls visible."""
    if text.isascii() and text.isprintable():  # most text: nothing to replace
        return text
    return _CONTROL_LINE.sub(lambda m: " " if m.group() in "\n\r\t" else _picture(m), text)


def escape_json_c1(dumped: str) -> str:
    """JSON text with DEL, C1 controls, bidi controls and lone surrogates escaped (json.dumps
    escapes only C0): the same value, safe for a terminal. A lone surrogate comes out as
    JSON.stringify writes it (`\\ud83d`)."""
    if dumped.isascii() and "\x7f" not in dumped:  # most JSON: nothing to escape
        return dumped
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
