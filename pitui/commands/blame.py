"""`pitui blame FILE [--all | --session-dir DIR | --archived | --remote NAME | --everywhere]
[--json]`: each line of FILE as it is now, with the session and entry whose call last wrote
it (`core/file_history/blame`); a line no session explains says so."""

from __future__ import annotations

import argparse
import os
import sys

from pitui.commands.support import file_scope
from pitui.commands.support.json_output import to_json
from pitui.commands.support.store_marks import store_json, store_mark
from pitui.core.catalog.summary import SessionSummary
from pitui.core.errors import PituiError
from pitui.core.file_history.blame import BlamedLine, blame
from pitui.core.regular_file import read_regular
from pitui.core.rows.safe_text import one_line, visible

UNEXPLAINED = "(no session wrote it)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    file_scope.add_file_arguments(parser, "a file")


def run(args: argparse.Namespace) -> int:
    text = _read(args.file)
    history = file_scope.history_of(args, with_text=True)
    targets = history.targets
    changes = [c for c in history.changes if c.path in targets]
    if not changes:
        raise PituiError(file_scope.nothing_note(args))
    lines = blame(changes, text)
    sessions = history.sessions
    if args.json:
        found = [line_json(line, _summary(line, sessions)) for line in lines]
        sys.stdout.write(to_json(found) + "\n")
    else:
        width = file_scope.prefix_width(line.change.session_id for line in lines if line.change)
        marks = [store_mark(_summary(line, sessions)) for line in lines]
        mark_width = max(map(len, marks), default=0)
        rendered = (
            render(line, width, mark.ljust(mark_width))
            for line, mark in zip(lines, marks, strict=True)
        )
        sys.stdout.write("".join(text + "\n" for text in rendered))
    unexplained = sum(line.change is None for line in lines)
    if unexplained and not args.all:
        print(f"pitui: {unexplained_note(args.file, unexplained)}", file=sys.stderr)
    return 0


def unexplained_note(path: str, lines: int) -> str:
    """A default scope left lines unexplained: a session run elsewhere may have written them."""
    what = "1 line of {} was" if lines == 1 else f"{lines:,} lines of {{}} were"
    said = what.format(path) + " written by none of these sessions"
    return one_line(said + file_scope.ALL_HINT)


def _read(path: str) -> str:
    if os.path.isdir(path):
        raise PituiError(f"{path} is a folder: blame takes a file (pitui log takes a folder)")
    try:
        data = read_regular(path)  # never a FIFO or a device (NotRegularFile says which)
    except FileNotFoundError:
        raise PituiError(f"no such file: {path}") from None
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    return data.decode("utf-8", errors="replace")


def _summary(line: BlamedLine, sessions: dict[str, SessionSummary]) -> SessionSummary | None:
    return None if line.change is None else sessions.get(line.change.session_path)


def line_json(line: BlamedLine, summary: SessionSummary | None) -> dict[str, object]:
    """`line`, `text`, `path`, `sessionId`, `id`, `timestamp` and the session's `store` (and
    `remotePath`, a remote's), as `pitui list --json` gives them; null without a session."""
    return {**line.to_json(), **store_json(summary)}


def render(line: BlamedLine, width: int = 8, mark: str = "") -> str:
    """`SESSION-ID-PREFIX ENTRY-ID DATE (REMOTE) | text` (the prefix `width` long; `mark`:
    `(NAME) ` for a remote's session, `(archived) `, padded alike), the text inert."""
    change = line.change
    if change is None:
        who = UNEXPLAINED.ljust(width + 20)
    else:
        session = file_scope.short_id(change.session_id, width)
        entry = file_scope.short_id(change.entry_id)
        who = f"{session} {entry} {file_scope.when(change.timestamp)[:10]:<10}"
    return f"{who} {mark}| {visible(line.text)}"
