"""The stores a listing or a search reads besides this machine's sessions: the options that
choose them (`pitui list`, `pitui grep`)."""

from __future__ import annotations

import argparse

from pitui.core.errors import UsageError


def add_store_arguments(parser: argparse.ArgumentParser, *, with_all: bool = False) -> None:
    """The stores a listing or a search reads besides this machine's sessions (`with_all`:
    its `--all` lists the remotes' mirrors too, unless `--no-remotes`)."""
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
    if with_all:
        parser.add_argument(
            "--no-remotes",
            action="store_true",
            help="leave the remotes' mirrored sessions out of --all (as the query's in:local)",
        )


def default_store(archived: bool, remote: str | None, everywhere: bool) -> str:
    """The store the options choose (a query's `in:` or `host:` token chooses over it)."""
    if sum((archived, remote is not None, everywhere)) > 1:
        raise UsageError("choose one of --archived, --remote and --everywhere")
    return "all" if everywhere else remote or ("archive" if archived else "local")


def store_asked(args: argparse.Namespace) -> str:
    """The store the options choose, `--all` included: once a remote is added, all sessions
    are this machine's and every remote's mirror (as the picker's all), unless
    `--no-remotes`."""
    default = default_store(args.archived, args.remote, args.everywhere)
    if not args.all or default != "local":
        return default
    return all_sessions(with_remotes=not args.no_remotes)


def all_sessions(with_remotes: bool = True) -> str:
    """The store of all sessions here: with every remote's mirror once one is added."""
    # deferred: the catalog, ~43 ms off a kept answer
    from pitui.core.catalog.scope import all_sessions_store

    # deferred: the remotes, ~16 ms off a kept answer
    from pitui.core.remotes.config import load_remotes

    return all_sessions_store(bool(load_remotes()), with_remotes)
