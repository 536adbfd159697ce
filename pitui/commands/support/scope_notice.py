"""What a scope left out, said on stderr (the line is `core.listing.left_out`'s).

A command that keeps its answer (`list`, `stats`) adds the line to its problems instead of
printing it: a kept answer is printed without its stderr, and a warning is said every time.
"""

from __future__ import annotations

import sys

from pitui.core.listing.left_out import left_out_line


def say_left_out(count: int, which: str = "") -> None:
    say_line(left_out_line(count, which))


def say_line(line: str | None) -> None:
    if line is not None:
        print(f"pitui: {line}", file=sys.stderr)
