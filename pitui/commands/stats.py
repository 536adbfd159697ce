"""`pitui stats [--by ...] [--since DATE|AGE] [--until DATE|AGE] [--all | --session-dir DIR]
[--json]`: usage and cost summed by day, week, model... (`core/usage`), as a table or JSON. An
AGE (`30d`, `2w`, `12h`, as prune's `--older-than`) is the local day that long ago.

A warm `pitui stats` prints its kept answer (`answer_cache`) before the usage cache and the
sessions are read or their modules imported: the functions that compute an answer import them.
"""

from __future__ import annotations

import argparse
import math
import os
import stat
import sys
import time
from typing import TYPE_CHECKING

from pitui.commands.support.answer_cache import AnswerCache, answer_cache_for, print_kept_answer
from pitui.commands.support.progress import progress_on_stderr
from pitui.core.errors import PituiError, UsageError
from pitui.core.listing.left_out import left_out_line
from pitui.core.rows.safe_text import escape_json_c1, one_line
from pitui.core.usage.groupings import GROUPINGS
from pitui.core.user_dirs import cache_folder

if TYPE_CHECKING:
    from pitui.core.usage.groups import Group, Stats


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
    parser.add_argument(
        "--json", action="store_true", help="print JSON (its shape: docs/COMMANDS.md, JSON output)"
    )


def run(args: argparse.Namespace) -> int:
    """The cached answer when nothing it was computed from changed (a warm `pitui stats` then
    reads neither the usage cache nor the sessions), else the sums."""
    since, until = _date(args.since, "--since"), _date(args.until, "--until")
    if since is not None and until is not None and since > until:
        raise UsageError(f"--since {since} is after --until {until}: no day is in between")
    args.since, args.until = since, until  # an age as its day: the kept answer is that day's
    cache = answer_cache_for("stats", args)
    if print_kept_answer(cache):
        return 0
    return print_stats(args, since, until, cache)


def print_stats(
    args: argparse.Namespace, since: str | None, until: str | None, cache: AnswerCache | None
) -> int:
    """Sum and print the usage in scope, and keep the answer in `cache` when clean."""
    import json  # deferred: ~1.3 ms off a kept answer

    # deferred: the catalog, ~50 ms off a kept answer
    from pitui.commands.support import answer_inputs

    # deferred: the usage cache, ~15 ms off a kept answer
    from pitui.core.usage.cache import FILE_NAME
    from pitui.core.usage.groups import summarize  # deferred: the sums, ~18 ms off a kept answer

    # deferred: the usage reader, ~16 ms off a kept answer
    from pitui.core.usage.load import load_usage

    # deferred: the catalog's scope, ~25 ms off a kept answer
    from pitui.core.usage.scope import scope_of

    depends = None
    if cache is not None:  # before anything is read: a change meanwhile misses next time
        depends = answer_inputs.scope_dependencies(args.all, args.session_dir, os.getcwd())
    scope = scope_of(args.all, args.session_dir)
    with progress_on_stderr("reading usage", quiet=args.json) as progress:
        usage = load_usage(
            scope.files,
            scope.accepts,
            no_cache=args.no_cache,
            whole_folders=True,
            progress=progress,
        )
    infos, rows, notice = usage.infos, usage.rows, usage.notice
    problems = [one_line(notice)] if notice else []
    problems += [f"cannot read {one_line(problem)}" for problem in scope.unreadable]
    left_out = left_out_line(usage.left_out)
    problems += [left_out] if left_out else []  # said every time: never kept with the answer
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)

    def exists(path: str) -> bool:  # a fork's ancestor: its presence decides where copies count
        if depends is None:
            return os.path.isfile(path)
        st = depends.stat(path)
        return st is not None and stat.S_ISREG(st.st_mode)

    stats = summarize(infos, rows, args.by, since, until, usage.lineage, exists)
    if args.json:
        text = json.dumps(to_json(stats, since, until), ensure_ascii=False, indent=1)
        out = escape_json_c1(text) + "\n"
    else:
        out = render(stats)
    sys.stdout.write(out)
    if cache is not None and depends is not None and not problems:
        # the lineage of gone forks came from this cache file (see `groups.counted_rows`)
        depends.stat_result(os.path.join(cache_folder(), FILE_NAME), usage.cache_stat)
        cache.put(depends, out)
    return 0


def to_json(stats: Stats, since: str | None, until: str | None) -> dict[str, object]:
    return {
        "by": stats.by,
        "since": since,
        "until": until,
        "groups": [g.to_json() for g in stats.groups],
        "total": stats.total.to_json(),
    }


HEADERS = ("SESSIONS", "REPLIES", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "COST")


def render(stats: Stats) -> str:
    """A table, one line a group, the totals on the last line."""
    keys = [one_line(g.key) for g in stats.groups] + ["TOTAL"]
    width = max([len(stats.by.upper()), *map(len, keys)])
    cells = [_cells(g) for g in [*stats.groups, stats.total]]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(HEADERS)]
    lines = [_line(stats.by.upper(), HEADERS, width, widths)]
    lines += [_line(k, c, width, widths) for k, c in zip(keys, cells, strict=True)]
    if not stats.groups:
        lines.insert(1, "(no usage)")
    return "\n".join(lines) + "\n"


def _cells(group: Group) -> tuple[str, ...]:
    numbers = (group.input, group.output, group.cache_read, group.cache_write)
    return (
        f"{len(group.sessions):,}",
        f"{group.messages:,}",
        *(f"{int(n):,}" if _plain(n) else _js(n) for n in numbers),
        f"${group.cost:,.2f}" if _plain(group.cost) else f"${_js(group.cost)}",
    )


def _plain(value: float) -> bool:
    """Whether a sum is shown as grouped digits: below 1e21, where JavaScript's String() of
    a number turns to an exponent; a larger one (1e308) as JavaScript writes it (`_js`),
    so a column keeps its usual width (309 digits made the table ~400 columns wide)."""
    return math.isfinite(value) and abs(value) < 1e21


def _js(value: float) -> str:
    """A sum past 1e21 or not finite as JavaScript writes Pi's sum (`1e+308`, `Infinity`)."""
    from pitui.core.format.jsvalues import js_number_string  # deferred: only such sums

    return js_number_string(value)


def _line(key: str, cells: tuple[str, ...], width: int, widths: list[int]) -> str:
    return "  ".join(
        [f"{key:<{width}}", *(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))]
    )


def _date(value: str | None, option: str) -> str | None:
    """`value` as a local day YYYY-MM-DD (an age such as `30d`: the day that long ago)."""
    if value is None:
        return None
    # deferred: datetime, ~3 ms off a kept answer
    from pitui.core.format.timestamps import parse_day

    if value[-1:].lower() in ("s", "m", "h", "d", "w"):
        return _day_ago(value, option)
    try:
        parse_day(value)
    except ValueError as error:
        raise UsageError(f"{option}: {error} (or an age: 30d, 2w, 12h)") from None
    return value


def _day_ago(age: str, option: str) -> str:
    from pitui.core.changes.prune import parse_duration  # deferred: prune, ~70 ms off a kept answer

    try:
        seconds = parse_duration(age)
    except PituiError as error:
        raise UsageError(f"{option}: {error}") from None
    return time.strftime("%Y-%m-%d", time.localtime(time.time() - seconds))
