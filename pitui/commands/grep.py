"""`pitui grep QUERY [--all | --session-dir DIR] [--archived | --remote NAME | --everywhere]
[--role R] [--limit N] [--json]`: the entries that match, across the sessions in scope
(`core/listing`), newest first, printed inert or as JSON, a remote's session marked `(NAME)`
as `pitui list` marks it.

`pitui grep --help` answers before the search is imported: the functions that search import
it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import TYPE_CHECKING

from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.store_marks import store_json, store_mark
from pitui.commands.support.store_options import add_store_arguments, store_asked
from pitui.core.errors import UsageError
from pitui.core.rows.safe_text import one_line

if TYPE_CHECKING:
    from pitui.core.entry_search.search import EntryStream


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", help='search text, as pitui list\'s ("phrase", re:..., label:..., after:...)'
    )
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    add_store_arguments(parser, with_all=True)
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
    return min(value, sys.maxsize)  # more than any store holds, and what islice takes


def run(args: argparse.Namespace) -> int:
    if not args.query.strip():
        raise UsageError("grep needs a query")
    return print_hits(args)


def print_hits(args: argparse.Namespace) -> int:
    """Search the sessions in scope and print the entries that match; as grep, exit 0 when
    some matched, 1 when none did, 2 when the search could not be made."""
    # deferred: the entry search, ~55 ms off grep --help
    from pitui.core.entry_search.search import EntryStream

    # deferred: the catalog, ~45 ms off grep --help
    from pitui.core.listing.sessions import sessions_in_scope

    store = store_asked(args)
    with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
        scope = sessions_in_scope(
            args.query,
            every=args.all or store not in ("local", "archive"),
            session_dir=args.session_dir,
            no_cache=args.no_cache,
            store=store,
            progress=progress,
        )
    _warn(scope.problems)
    # a bar only while the hits go elsewhere: on this terminal they show the work themselves
    quiet = args.json or sys.stdout.isatty()
    with progress_on_stderr("searching sessions", quiet=quiet) as progress:
        stream = EntryStream(scope.sessions, scope.text, role=args.role, progress=progress)
        printed = _print(stream, args)
    problems = [f"cannot read {one_line(p)}" for p in stream.unreadable]
    if stream.error:
        problems.append(one_line(stream.error))
    elif not scope.sessions and not args.all and store == "local" and not _files(scope.text):
        problems.append("no sessions in this folder (--all searches every folder's)")
    _warn(problems)
    if stream.error:
        return 2
    return 0 if printed else 1


def _files(text: str) -> list[str]:
    """The query's `file:PATH` values: a scope they emptied still has sessions."""
    from pitui.core.catalog.search.query import parse_query  # deferred with the search

    return parse_query(text).files


def _print(stream: EntryStream, args: argparse.Namespace) -> int:
    """Print the hits as they come (`--json`: an array); how many. A remote's session is
    marked as `pitui list` marks it: `(NAME) ` before the snippet, and in the JSON its `store`
    and `remotePath` (every hit has a `store`: "local", "archive" or the remote's name)."""
    from pitui.commands.support.json_output import write_json_array  # deferred: orjson, ~12 ms

    hits = (stream.finish(hit) for hit in itertools.islice(stream, args.limit))
    if args.json:
        found = ({**hit.to_json(), **store_json(hit.summary)} for hit in hits)
        return write_json_array(sys.stdout, found)
    printed = 0
    for hit in hits:
        sys.stdout.write(hit.to_line(store_mark(hit.summary)))
        printed += 1
    return printed


def _warn(problems: list[str]) -> None:
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)
