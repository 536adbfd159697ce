"""The commands' JSON: arrays printed as JSON.stringify writes them (`pitui list`, `grep`,
`log`, `blame` with `--json`), and the other commands' reports (`print_json`)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from typing import IO, Any

from pitui.core.rows.safe_text import escape_json_c1


def print_json(data: object) -> None:
    """A report as JSON on stdout (non-ASCII kept, C1 controls escaped)."""
    sys.stdout.write(escape_json_c1(json.dumps(data, ensure_ascii=False, indent=1)) + "\n")


def compact_json(data: Any) -> str:
    """One line of JSON, non-ASCII kept, C1 controls escaped (an MCP answer's text)."""
    return escape_json_c1(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def to_json(data: list[dict[str, Any]]) -> str:
    """A JSON array as JSON.stringify writes it (a lone surrogate as `\\udXXX`), with DEL
    and C1 controls escaped too."""
    import orjson  # deferred: ~12 ms off the commands that print only reports

    try:
        dumped = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except (TypeError, orjson.JSONEncodeError):  # lone surrogates: the standard library
        dumped = json.dumps(data, ensure_ascii=False, indent=2)
        dumped = re.sub("[\\ud800-\\udfff]", lambda m: f"\\u{ord(m.group()):04x}", dumped)
    return escape_json_c1(dumped)


def write_json_array(out: IO[str], items: Iterable[dict[str, Any]]) -> int:
    """Write `items` as `to_json` writes their list, each as it comes (the whole list is
    never held); returns how many were written."""
    count = 0
    for item in items:
        out.write(",\n" if count else "[\n")
        out.write(to_json([item])[2:-2])  # "[\n" + the item, indented + "\n]"
        count += 1
    out.write("\n]\n" if count else "[]\n")
    return count
