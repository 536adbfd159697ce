"""Which session a file is: the id in its header, read without loading the file."""

from __future__ import annotations

import os
from pathlib import Path

from pitui.core.errors import PituiError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.regular_file import open_regular

HEADER_SCAN_BYTES = 1024 * 1024  # as Pi's bounded header scan


def session_id_of(path: str | os.PathLike[str]) -> tuple[str, str]:
    """(session id, absolute path) of a session file; PituiError if it is not one.

    As Pi, the first line that parses must be a `session` header with a string id."""
    absolute = os.path.abspath(path)
    for line in _first_lines(Path(absolute)):
        if not line.strip():
            continue
        try:
            value = parse_line(line)
        except LineError:
            continue
        if isinstance(value, dict) and value.get("type") == EntryType.SESSION:
            session_id = value.get("id")
            if isinstance(session_id, str) and session_id:
                return session_id, absolute
        break
    raise PituiError(f"{absolute} is not a Pi session (no session header with an id)")


def _first_lines(path: Path) -> list[bytes]:
    try:
        fd = open_regular(path)  # NotRegularFile (a PituiError) names what it is
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        data = os.pread(fd, HEADER_SCAN_BYTES, 0)
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    finally:
        os.close(fd)
    return data.split(b"\n")
