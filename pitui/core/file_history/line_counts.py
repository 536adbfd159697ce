"""Lines a write or edit added and removed: from Pi's own diff in the edit's result
(`details.patch`, else `details.diff`), else worked out from the call's arguments."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from pitui.core.file_history.pi_edit import normalize_to_lf
from pitui.core.format.tool_arguments import Replacement


def lines_of(text: str) -> list[str]:
    """`text`'s lines (LF or CRLF), without their line ends; a last line end adds none."""
    if not text:
        return []
    lines = normalize_to_lf(text).split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def patch_counts(patch: str) -> tuple[int, int] | None:
    """(+, -) of a unified patch (jsdiff's formatPatch): the lines after the first hunk
    header that start with `+` or `-`; None for text that holds no hunk."""
    added = removed = 0
    in_hunks = False
    for line in patch.split("\n"):
        if line.startswith("@@"):
            in_hunks = True
        elif in_hunks and line.startswith("+"):
            added += 1
        elif in_hunks and line.startswith("-"):
            removed += 1
    return (added, removed) if in_hunks else None


def display_diff_counts(diff: str) -> tuple[int, int]:
    """(+, -) of Pi's display diff (`+12 text`, `-12 text`, ` 12 text`, `    ...`)."""
    lines = diff.split("\n")
    return (
        sum(line.startswith("+") for line in lines),
        sum(line.startswith("-") for line in lines),
    )


def details_counts(details: Any) -> tuple[int, int] | None:
    """(+, -) from an edit result's `details`, when it holds Pi's diff."""
    if not isinstance(details, dict):
        return None
    patch = details.get("patch")
    if isinstance(patch, str):
        counts = patch_counts(patch)
        if counts is not None:
            return counts
    diff = details.get("diff")
    return display_diff_counts(diff) if isinstance(diff, str) and diff else None


def edit_counts(edits: Sequence[Replacement]) -> tuple[int, int]:
    """(+, -) of an edit's replacements alone: each oldText's lines diffed with its newText's."""
    added = removed = 0
    for edit in edits:
        old, new = lines_of(edit.old_text), lines_of(edit.new_text)
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                removed += i2 - i1
                added += j2 - j1
    return added, removed


def write_counts(content: str) -> tuple[int, int]:
    """A write adds its content's lines; what it replaced is not in the session."""
    return len(lines_of(content)), 0
