"""Refusing command-line text that is not UTF-8 before it is written (`name`, `label`,
`context-edit --replace`, `tag`)."""

from __future__ import annotations

import re

from pitui.core.errors import UsageError

# What Python makes of command-line bytes that are not UTF-8 (surrogateescape: 0x85 is
# U+DC85), and any other lone surrogate: no Unicode text holds one.
_NOT_UTF8 = re.compile("[\ud800-\udfff]")


def utf8_argument(value: str | None, what: str) -> str | None:
    """`value`, an argument to be written (a name, a label, a tag), refused with one line if
    the command line held bytes that are not UTF-8 there: Python hands them over as lone
    surrogates (`\\udc85`), which would be written into the session as Pi never writes."""
    found = _NOT_UTF8.search(value) if value is not None else None
    if found is None:
        return value
    code = ord(found.group())
    byte = f" (byte 0x{code - 0xDC00:02x})" if 0xDC80 <= code <= 0xDCFF else ""
    raise UsageError(f"the {what} is not valid UTF-8{byte}")
