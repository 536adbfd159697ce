"""`pitui stats [--by ...] [--since DATE|AGE] [--until DATE|AGE] [--all | --session-dir DIR]
[--json]`: its options, and its cached answer (the sums themselves are `stats_report`'s). An
AGE (`30d`, `2w`, `12h`, as prune's `--older-than`) is the local day that long ago."""

from __future__ import annotations

import argparse

from pitui.commands.support.answer_cache import answer_cache_for, print_kept_answer
from pitui.core.errors import UsageError
from pitui.core.usage.groupings import GROUPINGS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--by", choices=GROUPINGS, default="day", help="grouping (default day)")
    parser.add_argument(
        "--since",
        metavar="DATE",
        help="from this local day (YYYY-MM-DD, or an age: 30d, 2w, 12h)",
    )
    parser.add_argument(
        "--until", metavar="DATE", help="up to this local day, included (or an age: 7d)"
    )
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not keep the usage cache")
    parser.add_argument("--json", action="store_true", help="print JSON (schema in the README)")


def run(args: argparse.Namespace) -> int:
    """The cached answer when nothing it was computed from changed (a warm `pitui stats` then
    reads neither the usage cache nor the sessions), else the sums."""
    since, until = _date(args.since, "--since"), _date(args.until, "--until")
    args.since, args.until = since, until  # an age as its day: the kept answer is that day's
    cache = answer_cache_for("stats", args)
    if print_kept_answer(cache):
        return 0
    from pitui.commands.stats_report import print_stats  # deferred: see ARCHITECTURE.md

    return print_stats(args, since, until, cache)


def _date(value: str | None, option: str) -> str | None:
    """`value` as a local day YYYY-MM-DD (an age such as `30d`: the day that long ago)."""
    if value is None:
        return None
    from pitui.core.format.timestamps import parse_day  # deferred: see ARCHITECTURE.md

    if value[-1:].lower() in ("s", "m", "h", "d", "w"):
        return _day_ago(value, option)
    try:
        parse_day(value)
    except ValueError as error:
        raise UsageError(f"{option}: {error} (or an age: 30d, 2w, 12h)") from None
    return value


def _day_ago(age: str, option: str) -> str:
    import time  # deferred: see ARCHITECTURE.md

    from pitui.core.changes.prune import parse_duration  # deferred: see ARCHITECTURE.md
    from pitui.core.errors import PituiError

    try:
        seconds = parse_duration(age)
    except PituiError as error:
        raise UsageError(f"{option}: {error}") from None
    return time.strftime("%Y-%m-%d", time.localtime(time.time() - seconds))
