"""`pitui stats`'s sums, computed (its cached answer is `stats`'s, given before this module is
imported), as a table or JSON."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys

from pitui.commands.support.answer_cache import AnswerCache
from pitui.commands.support.answer_inputs import scope_dependencies
from pitui.commands.support.progress import progress_on_stderr
from pitui.core.listing.left_out import left_out_line
from pitui.core.rows.safe_text import escape_json_c1, one_line
from pitui.core.usage.cache import FILE_NAME
from pitui.core.usage.groups import Group, Stats, summarize
from pitui.core.usage.load import load_usage
from pitui.core.usage.scope import scope_of
from pitui.core.user_dirs import cache_folder


def print_stats(
    args: argparse.Namespace, since: str | None, until: str | None, cache: AnswerCache | None
) -> int:
    """Sum and print the usage in scope, and keep the answer in `cache` when clean."""
    depends = None
    if cache is not None:  # before anything is read: a change meanwhile misses next time
        depends = scope_dependencies(args.all, args.session_dir, os.getcwd())
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


HEADERS = ("SESSIONS", "MSGS", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "COST")


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
        str(len(group.sessions)),
        str(group.messages),
        *(f"{int(n):,}" for n in numbers),
        f"${group.cost:,.2f}",
    )


def _line(key: str, cells: tuple[str, ...], width: int, widths: list[int]) -> str:
    return "  ".join(
        [f"{key:<{width}}", *(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))]
    )
