"""`pitui stats [--by ...] [--since DATE] [--until DATE] [--all | --session-dir DIR] [--json]`."""

from __future__ import annotations

import argparse
import re
import sys

from pitui.core.errors import PituiError
from pitui.core.usage.groups import GROUPINGS, Group, Stats, summarize
from pitui.core.usage.load import load_usage
from pitui.core.usage.scope import scope_of

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--by", choices=GROUPINGS, default="day", help="grouping (default day)")
    parser.add_argument("--since", metavar="DATE", help="from this local day (YYYY-MM-DD)")
    parser.add_argument("--until", metavar="DATE", help="up to this local day, included")
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not keep the usage cache")
    parser.add_argument("--json", action="store_true", help="print JSON (schema in the README)")


def run(args: argparse.Namespace) -> int:
    since, until = _date(args.since, "--since"), _date(args.until, "--until")
    scope = scope_of(args.all, args.session_dir)
    usage = load_usage(scope.files, scope.accepts, no_cache=args.no_cache, whole_folders=True)
    infos, rows, notice = usage.infos, usage.rows, usage.notice
    from pitui.core.rows.safe_text import one_line

    if notice:
        print(f"pitui: {one_line(notice)}", file=sys.stderr)
    for problem in scope.unreadable:
        print(f"pitui: cannot read {one_line(problem)}", file=sys.stderr)
    stats = summarize(infos, rows, args.by, since, until, usage.lineage)
    if args.json:
        import json

        from pitui.core.rows.safe_text import escape_json_c1

        text = json.dumps(to_json(stats, since, until), ensure_ascii=False, indent=1)
        sys.stdout.write(escape_json_c1(text) + "\n")
    else:
        sys.stdout.write(render(stats))
    return 0


def _date(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    if not _DATE.fullmatch(value):
        raise PituiError(f"{option} wants a day as YYYY-MM-DD, not {value!r}")
    return value


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
    from pitui.core.rows.safe_text import one_line

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
