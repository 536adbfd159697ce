"""`pitui grep`'s search (its options are `grep`'s): the entries of the sessions in scope
(`core.listing.sessions`) that match, printed inert or as JSON."""

from __future__ import annotations

import argparse
import sys

from pitui.commands.support.json_output import to_json
from pitui.commands.support.store_options import store_asked
from pitui.core.entry_search.scan import EntryHit
from pitui.core.entry_search.search import search_entries
from pitui.core.format.timestamps import local_minutes, to_ms
from pitui.core.listing.sessions import sessions_in_scope
from pitui.core.rows.safe_text import inert_path, one_line


def print_hits(args: argparse.Namespace) -> int:
    """Search the sessions in scope and print the entries that match; as grep, exit 0 when
    some matched, 1 when none did, 2 when the search could not be made."""
    store = store_asked(args)
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
    elif not scope.sessions and not args.all and store == "local":
        problems.append("no sessions in this folder (--all searches every folder's)")
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)
    if args.json:
        sys.stdout.write(to_json([hit.to_json() for hit in result.hits]) + "\n")
    else:
        sys.stdout.write("".join(render_hit(hit) + "\n" for hit in result.hits))
    if result.error:
        return 2
    return 0 if result.hits else 1


def render_hit(hit: EntryHit) -> str:
    """`PATH:LINE  ID  ROLE  TIME  SNIPPET`, every field made inert."""
    ms = to_ms(hit.timestamp)
    when = "?" if ms is None else local_minutes(ms)
    where = f"{inert_path(hit.path)}:{hit.line}"
    return f"{where}  {one_line(hit.id)}  {one_line(hit.role):<9}  {when:<16}  {hit.snippet}"
