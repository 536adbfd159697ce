"""The stores a listing or a search reads besides this machine's sessions: the options that
choose them (`pitui list`, `pitui grep`)."""

from __future__ import annotations

import argparse

from pitui.core.errors import UsageError


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    """The stores a listing or a search reads besides this machine's sessions."""
    parser.add_argument(
        "--archived", action="store_true", help="pitui's archive (as the query's in:archive)"
    )
    parser.add_argument(
        "--remote", metavar="NAME", help="every session of a remote's mirror (as host:NAME)"
    )
    parser.add_argument(
        "--everywhere",
        action="store_true",
        help="every session here, in the archive and in every remote's mirror (as in:all)",
    )


def default_store(archived: bool, remote: str | None, everywhere: bool) -> str:
    """The store the options choose (a query's `in:` or `host:` token chooses over it)."""
    if sum((archived, remote is not None, everywhere)) > 1:
        raise UsageError("choose one of --archived, --remote and --everywhere")
    return "all" if everywhere else remote or ("archive" if archived else "local")
