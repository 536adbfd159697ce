"""`pitui list [QUERY] [--all] [--session-dir DIR] [--archived | --remote NAME |
--everywhere] [--sort ...] [--named] [--no-cache] [--json]`: its options, and its cached answer
(the listing itself is `listing`'s)."""

from __future__ import annotations

import argparse

from pitui.commands.support.answer_cache import answer_cache_for, print_kept_answer
from pitui.commands.support.store_options import add_store_arguments
from pitui.core.catalog.search import SORTS


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
    from pitui.commands.listing import print_listing  # deferred: see ARCHITECTURE.md

    return print_listing(args, cache)
