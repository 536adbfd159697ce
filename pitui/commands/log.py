"""`pitui log FILE [--all | --session-dir DIR | --archived | --remote NAME | --everywhere]
[--json]`: every successful write and edit that touched FILE (a folder: anything under it)
across sessions, newest first (the history itself is `core/file_history`'s)."""

from __future__ import annotations

import argparse
import os
import sys

from pitui.commands.support import file_scope
from pitui.commands.support.json_output import to_json
from pitui.commands.support.store_marks import store_json, store_mark
from pitui.core.catalog.summary import SessionSummary
from pitui.core.file_history.session_changes import ABANDONED, FileChange
from pitui.core.format.pi_paths import is_within
from pitui.core.rows.safe_text import inert_path, one_line

LABEL_WIDTH = 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    file_scope.add_file_arguments(parser, "a file, or a folder (everything under it)")


def run(args: argparse.Namespace) -> int:
    history = file_scope.history_of(args, with_text=False)
    if args.json:
        found = [change_json(c, history.sessions.get(c.session_path)) for c in history.changes]
        sys.stdout.write(to_json(found) + "\n")
    else:
        here = os.getcwd()
        width = file_scope.prefix_width(c.session_id for c in history.changes)
        lines = [
            render(c, history.sessions.get(c.session_path), here, width) for c in history.changes
        ]
        sys.stdout.write("".join(line + "\n" for line in lines))
    if not history.changes:
        print(f"pitui: {one_line(file_scope.nothing_note(args))}", file=sys.stderr)
        return 1
    return 0


def change_json(change: FileChange, summary: SessionSummary | None) -> dict[str, object]:
    """`path` (the session's file, as `pitui grep`'s), `sessionId`, `id` (the entry), `tool`,
    `timestamp`, `added`, `removed`, `branch`, `file`: the file it wrote, and its session's
    `store` (and `remotePath`, a remote's), as `pitui list --json` gives them."""
    return {
        **change.to_json(),
        "path": change.session_path,
        "file": change.path,
        **store_json(summary),
    }


def render(change: FileChange, summary: SessionSummary | None, here: str, width: int = 8) -> str:
    """`TIME  TOOL  +A -R  SESSION ENTRY  FILE  (REMOTE) NAME-OR-FIRST-MESSAGE (abandoned
    branch)`, every field inert."""
    file = os.path.relpath(change.path, here) if is_within(here, change.path) else change.path
    label = ""
    if summary is not None:  # marked as `pitui list` marks a remote's or an archived session
        label = one_line(summary.name or summary.first_message or "")
        label = store_mark(summary) + label
        if len(label) > LABEL_WIDTH:
            label = label[: LABEL_WIDTH - 1] + "…"
    counts = f"+{change.added} -{change.removed}"
    fields = [
        f"{file_scope.when(change.timestamp):<16}",
        f"{change.tool:<5}",
        f"{counts:>9}",
        f"{file_scope.short_id(change.session_id, width)} {one_line(change.entry_id)}",
        inert_path(file),
        label,
    ]
    line = "  ".join(fields).rstrip()
    return line + " (abandoned branch)" if change.branch == ABANDONED else line
