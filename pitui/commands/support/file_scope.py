"""What `pitui log` and `pitui blame` share: their options (a FILE and the scope of
sessions, as `pitui grep`'s) and the history of FILE across the sessions of that scope."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any

from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.store_options import add_store_arguments, default_store
from pitui.core.file_history.history import FileHistory, file_history, related_to, targets_of
from pitui.core.format.timestamps import local_minutes, to_ms
from pitui.core.listing.sessions import sessions_in_scope
from pitui.core.rows.safe_text import one_line
from pitui.core.userdata.moves import earlier_paths, folder_moves

NOTHING_NOTE = "no successful write or edit in these sessions touched {path}"
ALL_HINT = (
    " (--all reads every session, not only those run in a folder that holds it or under its folder)"
)


def add_file_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("file", metavar="FILE", help=what)
    parser.add_argument(
        "--all",
        action="store_true",
        help="every session, not only those run in a folder that holds FILE or under its folder",
    )
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    add_store_arguments(parser)
    parser.add_argument("--no-cache", action="store_true", help="do not use the catalog index")
    parser.add_argument("--json", action="store_true", help="print a JSON array")


def history_of(args: argparse.Namespace, *, with_text: bool) -> FileHistory:
    """FILE's history in the sessions of the scope the options choose, of which only those
    the index says wrote FILE are read (`with_text`: the written text kept, for a replay);
    their problems (unreadable files, a scan's notices) said on stderr."""
    store = default_store(args.archived, args.remote, args.everywhere)
    targets = targets_of(args.file)
    moves = folder_moves()
    with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
        scope = sessions_in_scope(
            "",
            every=True,
            session_dir=args.session_dir,
            no_cache=args.no_cache,
            store=store,
            keep=None if args.all else related_to(targets, moves),
            writing=earlier_paths(targets, moves),  # written under a folder since moved
            progress=progress,
        )
    history = file_history(scope.sessions, targets, with_text=with_text, moves=moves)
    for problem in scope.problems + [f"cannot read {one_line(p)}" for p in history.unreadable]:
        print(f"pitui: {problem}", file=sys.stderr)
    return history


def nothing_note(args: argparse.Namespace) -> str:
    return NOTHING_NOTE.format(path=args.file) + ("" if args.all else ALL_HINT)


def when(timestamp: Any) -> str:
    ms = to_ms(timestamp)
    return "?" if ms is None else local_minutes(ms)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def prefix_width(ids: Iterable[Any], least: int = 8) -> int:
    """The shortest prefix, `least` characters at the least, that tells these ids apart (Pi's
    session ids are UUIDv7: their first 8 characters are the same for a minute)."""
    distinct = {_text(value) for value in ids}
    longest = max((len(text) for text in distinct), default=least)
    width = least
    while width < longest and len({text[:width] for text in distinct}) < len(distinct):
        width += 1
    return width


def short_id(value: Any, width: int = 8) -> str:
    return one_line(_text(value)[:width]).ljust(width)
