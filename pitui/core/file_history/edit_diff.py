"""An `edit` call as a unified diff, for the message pane and the exports.

Each line starts with its sign (`-` removed, `+` added, a space for context), so the diff
reads without colour. Pi's own diff from the call's result (`details.diff`, 1.6.0's
`generateEditDiff`: `-12 text`, `+12 text`, ` 12 text`, a `   ...` line for skipped ones)
is taken as it is, line numbers and all; without it (no result, an error, an older Pi) the
diff is worked out from the call's replacements alone, without line numbers."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pitui.core.file_history.line_counts import lines_of
from pitui.core.format.tool_arguments import Replacement, call_path, edit_replacements

SKIPPED = " ..."  # between two replacements' diffs, as Pi marks the lines it skips


@dataclass(frozen=True, slots=True)
class EditDiff:
    path: str | None  # the call's `path` argument, as written
    text: str  # the diff's lines, joined by newlines
    first_changed_line: int | None  # Pi's, from the result
    numbered: bool  # the lines carry Pi's line numbers


def pi_diff(details: Any) -> tuple[str, int | None] | None:
    """Pi's display diff and first changed line from an edit result's `details`."""
    if not isinstance(details, dict):
        return None
    diff = details.get("diff")
    if not isinstance(diff, str) or not diff:
        return None
    first = details.get("firstChangedLine")
    number = first if isinstance(first, int) and not isinstance(first, bool) else None
    return diff, number


def replacements_diff(edits: Sequence[Replacement]) -> str:
    """Each replacement's oldText diffed with its newText, line by line."""
    out: list[str] = []
    for edit in edits:
        if out:
            out.append(SKIPPED)
        old, new = lines_of(edit.old_text), lines_of(edit.new_text)
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                out += [f" {line}" for line in old[i1:i2]]
                continue
            out += [f"-{line}" for line in old[i1:i2]]
            out += [f"+{line}" for line in new[j1:j2]]
    return "\n".join(out)


def edit_diff(arguments: Any, details: Any = None) -> EditDiff | None:
    """The diff of an edit call (its `arguments`, and its result's `details` when it has
    one); None when the call holds no edit Pi's tool would run and no result shows one."""
    path = call_path(arguments)
    from_pi = pi_diff(details)
    if from_pi is not None:
        return EditDiff(path, from_pi[0], from_pi[1], numbered=True)
    edits = edit_replacements(arguments)
    if edits is None:
        return None
    return EditDiff(path, replacements_diff(edits), None, numbered=False)
