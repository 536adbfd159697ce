"""`pitui grep QUERY [--all | --session-dir DIR] [--archived | --remote NAME | --everywhere]
[--role R] [--limit N] [--json]`: the entries that match, across sessions, newest first."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pitui.core.catalog.summary import SessionSummary
    from pitui.core.entry_search.scan import EntryHit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pitui.commands.list import add_store_arguments

    parser.add_argument(
        "query", help='search text, as pitui list\'s ("phrase", re:..., label:..., after:...)'
    )
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    add_store_arguments(parser)
    parser.add_argument(
        "--role", choices=("user", "assistant", "tool"), help="only entries of this role"
    )
    parser.add_argument("--limit", type=_positive, help="print at most N entries")
    parser.add_argument("--no-cache", action="store_true", help="do not use the catalog index")
    parser.add_argument("--json", action="store_true", help="print a JSON array")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from pitui.commands.list import to_json
    from pitui.core.entry_search.search import search_entries
    from pitui.core.errors import UsageError
    from pitui.core.rows.safe_text import one_line

    if not args.query.strip():
        raise UsageError("grep needs a query")
    from pitui.commands.list import default_store

    store = default_store(args.archived, args.remote, args.everywhere)
    scope = sessions_in_scope(
        args.query,
        every=args.all or store not in ("local", "archive"),
        session_dir=args.session_dir,
        no_cache=args.no_cache,
        store=store,
    )
    result = search_entries(scope.sessions, scope.text, role=args.role, limit=args.limit)
    problems = scope.problems + [f"cannot read {one_line(p)}" for p in result.unreadable]
    if result.error:
        problems.append(one_line(result.error))
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)
    if args.json:
        sys.stdout.write(to_json([hit.to_json() for hit in result.hits]) + "\n")
    else:
        sys.stdout.write("".join(render_hit(hit) + "\n" for hit in result.hits))
    return 0


@dataclass
class Scope:
    sessions: list[SessionSummary]
    text: str  # the query without pitui's `pin:` and `tag:` tokens
    problems: list[str] = field(default_factory=list)


def sessions_in_scope(
    query: str,
    *,
    every: bool = False,
    session_dir: str | None = None,
    no_cache: bool = False,
    store: str = "local",
) -> Scope:
    """The sessions `pitui list` would search (this folder's, or every one; of `store`, or of
    the one a query's `in:` / `host:` token names), newest first, those that a query's
    `pin:` / `tag:NAME` tokens leave out removed."""
    from pitui.commands.list import load_marks, open_catalog, refuse_bad_query, scan_problems
    from pitui.core.catalog.search.query import split_store
    from pitui.core.userdata.arrange import matches, split_query

    cwd = os.getcwd()
    mark_query = split_query(query)
    refuse_bad_query(mark_query.text)  # before any file is read
    store, text = split_store(mark_query.text, store)
    problems: list[str] = []
    with open_catalog(store, session_dir, no_cache, problems) as catalog:
        report = catalog.scan(tools="later")  # entry search reads the files, not the indexes
        problems += scan_problems(report, catalog.index.notice)
        sessions = catalog.sessions(None if every else cwd, store=store)
    if mark_query.active:
        marks = load_marks(problems)
        sessions = [s for s in sessions if matches(s, marks, mark_query)]
    return Scope(sessions, text, problems)


def render_hit(hit: EntryHit) -> str:
    """`PATH:LINE  ID  ROLE  TIME  SNIPPET`, every field made inert."""
    from pitui.core.format.timestamps import local_minutes, to_ms
    from pitui.core.rows.safe_text import inert_path, one_line

    ms = to_ms(hit.timestamp)
    when = "?" if ms is None else local_minutes(ms)
    where = f"{inert_path(hit.path)}:{hit.line}"
    return f"{where}  {one_line(hit.id)}  {one_line(hit.role):<9}  {when:<16}  {hit.snippet}"
