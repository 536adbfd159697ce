"""`pitui grep QUERY [--all | --session-dir DIR] [--archived | --remote NAME | --everywhere]
[--role R] [--limit N] [--json]`: the entries that match, across sessions, newest first (the
search itself is `grep_hits`')."""

from __future__ import annotations

import argparse

from pitui.commands.support.store_options import add_store_arguments
from pitui.core.errors import UsageError


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
    return value


def run(args: argparse.Namespace) -> int:
    if not args.query.strip():
        raise UsageError("grep needs a query")
    from pitui.commands.grep_hits import print_hits  # deferred: see ARCHITECTURE.md

    return print_hits(args)
