"""`pitui stats [--by ...] [--since DATE] [--until DATE] [--all | --session-dir DIR] [--json]`:
its options, and its cached answer (the sums themselves are `stats_report`'s)."""

from __future__ import annotations

import argparse

from pitui.commands.answer_cache import answer_cache_for, print_kept_answer
from pitui.core.errors import UsageError
from pitui.core.usage.groupings import GROUPINGS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--by", choices=GROUPINGS, default="day", help="grouping (default day)")
    parser.add_argument("--since", metavar="DATE", help="from this local day (YYYY-MM-DD)")
    parser.add_argument("--until", metavar="DATE", help="up to this local day, included")
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not keep the usage cache")
    parser.add_argument("--json", action="store_true", help="print JSON (schema in the README)")


def run(args: argparse.Namespace) -> int:
    """The cached answer when nothing it was computed from changed (a warm `pitui stats` then
    reads neither the usage cache nor the sessions), else the sums."""
    since, until = _date(args.since, "--since"), _date(args.until, "--until")
    cache = answer_cache_for("stats", args)
    if print_kept_answer(cache):
        return 0
    from pitui.commands.stats_report import print_stats  # deferred: see ARCHITECTURE.md

    return print_stats(args, since, until, cache)


def _date(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    from pitui.core.format.timestamps import parse_day  # deferred: see ARCHITECTURE.md

    try:
        parse_day(value)
    except ValueError as error:
        raise UsageError(f"{option}: {error}") from None
    return value
