"""What an export can be asked for: light to import (the app's dialog needs only this)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Format = Literal["md", "html", "jsonl"]
FORMATS: tuple[Format, ...] = ("md", "html", "jsonl")
EXTENSIONS = {"md": ".md", "html": ".html", "jsonl": ".jsonl"}
DEFAULT_MAX_TOOL_LINES = 60


@dataclass(frozen=True, slots=True)
class ExportOptions:
    format: Format = "md"
    context: bool = False
    redact: bool = False
    max_tool_lines: int = DEFAULT_MAX_TOOL_LINES
