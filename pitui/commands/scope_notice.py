"""What a scope left out, said on stderr: a `--session-dir DIR` read without `--all` keeps
only the sessions started in this folder (Pi's `list(cwd)`), and a command says how many it
left out and how to have them."""

from __future__ import annotations

import sys


def left_out_line(count: int, which: str = "") -> str | None:
    """The line for `count` left-out sessions (`which`: " with credentials"; None: none was
    left out)."""
    if count == 0:
        return None
    return (
        f"left out {count} session{'s' * (count != 1)}{which} of the session folder started "
        "in other folders than this one (--all includes them)"
    )


def say_left_out(count: int, which: str = "") -> None:
    line = left_out_line(count, which)
    if line is not None:
        print(f"pitui: {line}", file=sys.stderr)
