"""Output a terminal's encoding cannot carry: written as JSON escapes, never a traceback.

Under a locale that is not UTF-8 (`LC_ALL=POSIX`, a Latin-1 terminal), Python's standard
output is ASCII or Latin-1 and fails on the first `•` or `é`: `pitui tree` died with a
UnicodeEncodeError. Each character the stream cannot encode is written as `\\uXXXX` (UTF-16
units, as JSON writes them): inside `--json` output the value stays the same, and text
stays readable and inert. UTF-8 streams, the usual case, are left as they are.
"""

from __future__ import annotations

import codecs
import io
import sys

HANDLER = "pitui.json-escape"


def _json_escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    units = error.object[error.start : error.end].encode("utf-16-be", "surrogatepass")
    escaped = "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return escaped, error.end


codecs.register_error(HANDLER, _json_escape)


def escape_what_cannot_be_written() -> None:
    """Make standard output and error escape what their encoding cannot carry."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper) or _is_unicode(stream.encoding):
            continue
        stream.reconfigure(errors=HANDLER)


def _is_unicode(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "ascii").name.startswith("utf-")
    except LookupError:
        return False
