"""JSON arrays printed as JSON.stringify writes them (`pitui list`, `grep`, `log`, `blame`
with `--json`)."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from pitui.core.rows.safe_text import escape_json_c1


def to_json(data: list[dict[str, Any]]) -> str:
    """A JSON array as JSON.stringify writes it (a lone surrogate as `\\udXXX`), with DEL
    and C1 controls escaped too."""
    try:
        dumped = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except (TypeError, orjson.JSONEncodeError):  # lone surrogates: the standard library
        dumped = json.dumps(data, ensure_ascii=False, indent=2)
        dumped = re.sub("[\\ud800-\\udfff]", lambda m: f"\\u{ord(m.group()):04x}", dumped)
    return escape_json_c1(dumped)
