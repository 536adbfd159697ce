"""`pitui prune [--all | --session-dir DIR] [--empty] [--older-than D] [--larger-than S]
[--cwd-missing] [--query Q] [--dry-run] [--json] [--yes]`: sessions to the trash, in bulk."""

from __future__ import annotations

import argparse
import json
import os
import sys

from pitui.commands.du import human
from pitui.commands.list import refuse_bad_query
from pitui.core.catalog import discovery
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.summary import SessionSummary
from pitui.core.changes.prune import (
    Criteria,
    PruneResult,
    move_to_trash,
    parse_duration,
    parse_size,
    select,
)
from pitui.core.errors import PituiError
from pitui.core.format.timestamps import local_minutes
from pitui.core.rows.safe_text import escape_json_c1, one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--empty", action="store_true", help="a header and no message")
    parser.add_argument("--older-than", metavar="DURATION", help="last message older (30d, 12h)")
    parser.add_argument("--larger-than", metavar="SIZE", help="file larger than (500K, 1G)")
    parser.add_argument("--cwd-missing", action="store_true", help="its folder no longer exists")
    parser.add_argument("--query", help="pitui's search syntax, as pitui list")
    parser.add_argument("--dry-run", action="store_true", help="only say what would be trashed")
    parser.add_argument("--yes", action="store_true", help="do not ask")
    parser.add_argument("--json", action="store_true", help="print JSON (schema in the README)")


def run(args: argparse.Namespace) -> int:
    criteria = Criteria(
        empty=args.empty,
        older_than=None if args.older_than is None else parse_duration(args.older_than),
        larger_than=None if args.larger_than is None else parse_size(args.larger_than),
        cwd_missing=args.cwd_missing,
    )
    if not criteria.any() and not args.query:
        raise PituiError(
            "say what to prune: --empty, --older-than, --larger-than, --cwd-missing or --query"
        )
    chosen = _selection(args, criteria)
    total = sum(s.size for s in chosen)
    if not args.json:
        sys.stdout.write(render(chosen, total, args.dry_run))
    if args.dry_run or not chosen:
        if args.json:
            _print_json(to_json(chosen, total, args.dry_run, None))
        return 0
    if not args.yes and not _confirm(len(chosen), total):
        print("nothing was moved", file=sys.stderr)
        return 1
    result = move_to_trash(s.path for s in chosen)
    if args.json:
        _print_json(to_json(chosen, total, False, result))
    else:
        sys.stdout.write(render_result(result))
    return 1 if result.failed else 0


def _selection(args: argparse.Namespace, criteria: Criteria) -> list[SessionSummary]:
    cwd = os.getcwd()
    refuse_bad_query(args.query or "")
    custom = discovery.custom_session_dir(args.session_dir, cwd)
    with Catalog(discovery.sessions_root(), custom_dir=custom) as catalog:
        catalog.scan(tools="now" if args.query else "later")  # tool output: for a query only
        result = catalog.search(args.query or "", cwd=None if args.all else cwd, sort="recent")
    if result.error:
        raise PituiError(one_line(result.error))
    return select((row.summary for row in result.rows), criteria)


def _confirm(count: int, total: int) -> bool:
    if not sys.stdin.isatty():
        raise PituiError("no terminal to ask for confirmation: run with --yes or --dry-run")
    what = "session" if count == 1 else "sessions"
    answer = input(f"Move {count} {what} ({human(total)}) to the trash? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def render(chosen: list[SessionSummary], total: int, dry_run: bool) -> str:
    if not chosen:
        return "no session matches: nothing to move\n"
    lines = [f"{'BYTES':>10}  {'MODIFIED':<16}  SESSION"]
    for s in chosen:
        when = "?" if s.modified_ms is None else local_minutes(s.modified_ms)
        lines.append(f"{human(s.size):>10}  {when:<16}  {one_line(s.path)}")
    verb = "would move" if dry_run else "to move"
    what = "session" if len(chosen) == 1 else "sessions"
    lines.append(f"{verb} {len(chosen)} {what} ({human(total)}) to the trash")
    return "\n".join(lines) + "\n"


def render_result(result: PruneResult) -> str:
    lines = [f"skipped {one_line(p)}: {one_line(why)}" for p, why in result.skipped]
    lines += [f"failed {one_line(p)}: {one_line(why)}" for p, why in result.failed]
    lines.append(f"moved {len(result.moved)} to the trash (pitui restore --list to undo)")
    return "\n".join(lines) + "\n"


def to_json(
    chosen: list[SessionSummary], total: int, dry_run: bool, result: PruneResult | None
) -> dict[str, object]:
    return {
        "dryRun": dry_run,
        "selected": [
            {"path": s.path, "id": s.id, "bytes": s.size, "modified": s.modified, "cwd": s.cwd}
            for s in chosen
        ],
        "totalBytes": total,
        "moved": result.moved if result else [],
        "skipped": [{"path": p, "reason": r} for p, r in result.skipped] if result else [],
        "failed": [{"path": p, "reason": r} for p, r in result.failed] if result else [],
    }


def _print_json(data: object) -> None:
    sys.stdout.write(escape_json_c1(json.dumps(data, ensure_ascii=False, indent=1)) + "\n")
