"""Telling Pi's newer harness format (`{"kind":"header","version":4,...}` first) from a file
that is not a session, without reading more than its start."""

from __future__ import annotations

import os

from pitui.core.format.jsonline import LineError, parse_line
from pitui.core.format.migration import is_harness_header
from pitui.core.regular_file import NotRegularFile, open_regular

SNIFF_BYTES = 64 * 1024  # a harness header longer than this is not recognised


def is_harness_file(path: str | os.PathLike[str]) -> bool:
    """Whether the first line of the file that is not blank is a harness header."""
    try:
        fd = open_regular(path)
    except (OSError, NotRegularFile):
        return False
    try:
        start = os.read(fd, SNIFF_BYTES)
    except OSError:
        return False
    finally:
        os.close(fd)
    first = next((line for line in start.split(b"\n") if line.strip()), b"")
    try:
        return is_harness_header(parse_line(first))
    except LineError:
        return False
