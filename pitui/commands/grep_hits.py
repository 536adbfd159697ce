"""`pitui grep`'s search (its options are `grep`'s): the sessions `pitui list` would search,
the entries of theirs that match, printed inert or as JSON; `pitui mcp` shares the scope."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field

from pitui.commands.listing import (
    KeptCatalogs,
    catalog_for,
    load_marks,
    refuse_bad_query,
    scan_problems,
    to_json,
)
from pitui.commands.support.scope_notice import left_out_of_catalog
from pitui.commands.support.store_options import store_asked
from pitui.core.catalog.search.query import split_store
from pitui.core.catalog.summary import SessionSummary
from pitui.core.entry_search.scan import EntryHit
from pitui.core.entry_search.search import search_entries
from pitui.core.format.timestamps import local_minutes, to_ms
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.userdata.arrange import matches, split_query


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
    catalogs: KeptCatalogs | None = None,
) -> Scope:
    """The sessions `pitui list` would search (this folder's, or every one; of `store`, or of
    the one a query's `in:` / `host:` token names), newest first, those that a query's
    `pin:` / `tag:NAME` tokens leave out removed."""
    cwd = os.getcwd()
    mark_query = split_query(query)
    refuse_bad_query(mark_query.text)  # before any file is read
    store, text = split_store(mark_query.text, store)
    problems: list[str] = []
    with catalog_for(catalogs, store, session_dir, no_cache, problems) as catalog:
        report = catalog.scan(tools="later")  # entry search reads the files, not the indexes
        problems += scan_problems(report, catalog.index.notice)
        sessions = catalog.sessions(None if every else cwd, store=store)
        left_out = None if every else left_out_of_catalog(catalog, cwd, store, session_dir)
    problems += [left_out] if left_out else []
    if mark_query.active:
        marks = load_marks(problems)
        sessions = [s for s in sessions if matches(s, marks, mark_query)]
    return Scope(sessions, text, problems)


def render_hit(hit: EntryHit) -> str:
    """`PATH:LINE  ID  ROLE  TIME  SNIPPET`, every field made inert."""
    ms = to_ms(hit.timestamp)
    when = "?" if ms is None else local_minutes(ms)
    where = f"{inert_path(hit.path)}:{hit.line}"
    return f"{where}  {one_line(hit.id)}  {one_line(hit.role):<9}  {when:<16}  {hit.snippet}"
