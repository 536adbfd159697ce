"""`pitui list [QUERY] [--all] [--session-dir DIR] [--archived | --remote NAME |
--everywhere] [--sort ...] [--named] [--no-cache] [--json]`: the sessions a query finds
(`core/listing`), as a table or as JSON.

A warm listing prints its kept answer (`answer_cache`) before the catalog, orjson and SQLite
are imported: the functions that compute an answer import them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from pitui.commands.support.answer_cache import AnswerCache, answer_cache_for, print_kept_answer
from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.store_options import add_store_arguments, store_asked
from pitui.core.catalog.search import SORTS
from pitui.core.live.open_by import OpenSessions, open_sessions
from pitui.core.rows.safe_text import one_line

if TYPE_CHECKING:
    from pitui.core.catalog.catalog import SearchResult
    from pitui.core.userdata.store import Marks

TITLE_WIDTH = 60


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", nargs="?", default="", help='search text (Pi syntax: "phrase", re:...)'
    )
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument(
        "--sort",
        choices=SORTS,
        help="order (default threaded; recent for --json; cost, size: largest first)",
    )
    parser.add_argument("--named", action="store_true", help="only sessions with a name")
    add_store_arguments(parser, with_all=True)
    parser.add_argument("--no-cache", action="store_true", help="do not use the catalog index")
    parser.add_argument("--json", action="store_true", help="print a JSON array (Pi's keys first)")


def run(args: argparse.Namespace) -> int:
    """The cached answer when nothing it was computed from changed (a warm listing then
    imports neither the catalog nor the JSON encoder), else the listing."""
    cache = answer_cache_for("list", args)
    if print_kept_answer(cache):
        return 0
    return print_listing(args, cache)


def print_listing(args: argparse.Namespace, cache: AnswerCache | None) -> int:
    """Compute and print the listing, and keep it in `cache` when clean."""
    # deferred: the catalog, ~50 ms off a kept answer
    from pitui.commands.support import answer_inputs

    # deferred: orjson, ~12 ms off a kept answer
    from pitui.commands.support.json_output import to_json
    from pitui.core.listing import sessions  # deferred: the catalog, ~47 ms off a kept answer

    cwd = os.getcwd()
    default = store_asked(args)
    store = sessions.store_of(args.query, default)
    every = args.all or store not in ("local", "archive")
    depends = None
    if cache is not None:  # before anything is read: a change meanwhile misses next time
        depends = answer_inputs.listing_dependencies(args.session_dir, cwd, store, args.all)

    sort = args.sort or ("recent" if args.json else "threaded")
    with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
        result, marks, problems = sessions.list_sessions(
            args.query,
            every=every,
            session_dir=args.session_dir,
            sort=sort,
            named=args.named,
            no_cache=args.no_cache,
            store=default,
            progress=progress,
            stats=None if depends is None else depends.stats,  # taken once for both
        )
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)
    if args.json:
        data = [sessions.with_marks(row.summary.to_json(), row, marks) for row in result.rows]
        found = cache.open_sessions() if cache else open_sessions(exclude=os.getpid())
        if depends is not None:
            for folder in answer_inputs.held_folders(args.session_dir, cwd, store):
                depends.holders(folder, found)
        with_holders(data, found)
        out = to_json(data) + "\n"  # `[]` when the search could not be made: still JSON
    elif result.error:
        out = ""  # the error said on stderr is the answer, no empty table under it
    else:
        out = render(result, show_cwd=every, marks=marks)
    sys.stdout.write(out)
    if cache is not None and depends is not None and not problems:
        cache.put(depends, out)  # only a clean answer: a warning is said every time
    return 2 if result.error else 0  # as `pitui grep`: the search could not be made


def render(result: SearchResult, show_cwd: bool, marks: Marks) -> str:
    """A table: modified time, messages, guide + name or first message, (cwd); a pinned
    session's title after `* `, its tags in brackets (kept when clipped)."""
    from pitui.core.format.migration import NEWER_FORMAT  # deferred: ~4 ms off a kept answer

    # deferred: datetime, ~3 ms off a kept answer
    from pitui.core.format.timestamps import local_minutes

    header = f"{'MODIFIED':<16}  {'MSGS':>5}  {'SESSION':<{TITLE_WIDTH}}"
    lines = [header + ("  CWD" if show_cwd else "")]
    for row in result.rows:
        s = row.summary
        when = "?" if s.modified_ms is None else local_minutes(s.modified_ms)
        title = one_line(s.name or s.first_message)
        tags = marks.tags_of(s.id)
        title = f"[{one_line(' '.join(tags))}] {title}" if tags else title
        title = f"* {title}" if marks.is_pinned(s.id) else title
        title = f"({NEWER_FORMAT}) {title}" if s.newer_format else title
        title = f"(archived) {title}" if s.store == "archive" else title
        title = f"({one_line(s.store)}) {title}" if s.store not in ("local", "archive") else title
        title = _clip(row.guide() + title, TITLE_WIDTH)
        line = f"{when:<16}  {s.message_count:>5}  {title:<{TITLE_WIDTH}}"
        lines.append((line + "  " + one_line(s.cwd)) if show_cwd else line.rstrip())
    if not result.rows:
        lines.append("(no sessions)")
    return "\n".join(lines) + "\n"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def with_holders(data: list[dict[str, Any]], found: OpenSessions | None) -> None:
    """Each session's `openBy`: the processes (other than pitui's own) holding it open, as
    `found` saw them (empty where /proc cannot tell)."""
    for item in data:
        held = found.holders(item["path"]) if found is not None else []
        item["openBy"] = [h.to_json() for h in held]
