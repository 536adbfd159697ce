"""What `pitui prune`, `archive` and `unarchive` share: choosing sessions (criteria, a query,
files or session ids), showing the choice, asking once, and reporting the moves."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pitui.commands.support.json_output import print_json
from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.scope_notice import say_line
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.search.query import Store
from pitui.core.catalog.summary import SessionSummary
from pitui.core.changes.prune import (
    Criteria,
    MoveResult,
    move_each,
    parse_duration,
    parse_size,
    select,
)
from pitui.core.changes.removal_guard import RemovalGuard
from pitui.core.changes.write_guard import activity_warning
from pitui.core.errors import PituiError, UsageError
from pitui.core.format.timestamps import local_minutes
from pitui.core.listing.left_out import left_out_of_catalog
from pitui.core.listing.sessions import refuse_bad_query
from pitui.core.rows.safe_text import one_line
from pitui.core.size_text import human_size

T = TypeVar("T")


def add_arguments(parser: argparse.ArgumentParser, verb: str) -> None:
    """The selection options, and `--dry-run` / `--yes` / `--json` (`verb`: "trashed")."""
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--empty", action="store_true", help="a header and no message")
    parser.add_argument("--older-than", metavar="DURATION", help="last message older (30d, 12h)")
    parser.add_argument("--larger-than", metavar="SIZE", help="file larger than (500K, 1G)")
    parser.add_argument("--cwd-missing", action="store_true", help="its folder no longer exists")
    parser.add_argument("--query", help="pitui's search syntax, as pitui list")
    parser.add_argument("--dry-run", action="store_true", help=f"only say what would be {verb}")
    parser.add_argument("--yes", action="store_true", help="do not ask")
    parser.add_argument(
        "--force", action="store_true", help="move even a session pi may still be writing"
    )
    parser.add_argument(
        "--json", action="store_true", help="print JSON (its shape: docs/COMMANDS.md, JSON output)"
    )


def criteria_of(args: argparse.Namespace) -> Criteria:
    """The criteria the options give; a value that is not a duration or a size is a usage
    error (exit status 2, as a wrong option gets from argparse and `pitui stats --since`)."""
    return Criteria(
        empty=args.empty,
        older_than=_value("--older-than", args.older_than, parse_duration),
        larger_than=_value("--larger-than", args.larger_than, parse_size),
        cwd_missing=args.cwd_missing,
    )


def _value(option: str, text: str | None, parse: Callable[[str], T]) -> T | None:
    if text is None:
        return None
    try:
        return parse(text)
    except PituiError as error:
        raise UsageError(f"{option}: {one_line(str(error))}") from None


def selected(
    args: argparse.Namespace,
    criteria: Criteria,
    store: Store = "local",
    named: list[str] | None = None,
) -> list[SessionSummary]:
    """The sessions of `store` in scope (this folder's, or `--all`) that the query and the
    criteria select; or, when `named` (files or session ids) is given, those sessions (in
    any folder) that the criteria select."""
    cwd = os.getcwd()
    refuse_bad_query(args.query or "")
    custom = discovery.custom_session_dir(args.session_dir, cwd)
    archive = discovery.archive_root() if store != "local" else None
    with Catalog(discovery.sessions_root(), custom_dir=custom, archive_dir=archive) as catalog:
        with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
            catalog.scan(progress, tools="later")  # a query's search indexes what it needs
        scope = None if args.all or named else cwd
        result = catalog.search(
            args.query or "", cwd=scope, sort="recent", store=store, index_tools=True
        )
        if scope is not None:
            say_line(left_out_of_catalog(catalog, cwd, store, args.session_dir))
    if result.error:
        raise PituiError(one_line(result.error))
    summaries = [row.summary for row in result.rows]
    if named:
        summaries = [find(summaries, wanted, store) for wanted in named]
    return select(summaries, criteria)


def find(summaries: list[SessionSummary], wanted: str, store: Store) -> SessionSummary:
    """The one session `wanted` names: its file, or its session id (or a unique prefix)."""
    absolute = os.path.abspath(wanted)
    exact = [s for s in summaries if s.path == absolute or s.id == wanted]
    if len(exact) == 1:
        return exact[0]
    prefix = exact or [s for s in summaries if isinstance(s.id, str) and s.id.startswith(wanted)]
    if len(prefix) == 1:
        return prefix[0]
    where = "in the archive" if store == "archive" else "in the session folders"
    if not prefix:
        if os.path.lexists(absolute):
            raise PituiError(f"{one_line(wanted)} is not a session {where}")
        raise PituiError(f"no session {where} matches {one_line(repr(wanted))}")
    raise PituiError(f"{len(prefix)} sessions {where} match {one_line(repr(wanted))}; give more")


def confirm(question: str) -> bool:
    """Ask once (a terminal is needed: without one, the caller must say --yes)."""
    if not sys.stdin.isatty():
        raise PituiError("no terminal to ask for confirmation: run with --yes or --dry-run")
    answer = input(f"{question} [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def count(n: int) -> str:
    return f"{n} session" if n == 1 else f"{n} sessions"


def render(
    chosen: list[SessionSummary],
    dry_run: bool,
    where: str,
    skips: list[tuple[str, str]] | None = None,
) -> str:
    """The table of the chosen sessions, then what would be moved (`where`: "to the trash");
    `skips`: the sessions a dry run says the move would skip now, and why (path, reason)."""
    if not chosen:
        return "no session matches: nothing to move\n"
    why = dict(skips or [])
    lines = [f"{'BYTES':>10}  {'MODIFIED':<16}  SESSION"]
    for s in chosen:
        when = "?" if s.modified_ms is None else local_minutes(s.modified_ms)
        lines.append(f"{human_size(s.size):>10}  {when:<16}  {one_line(s.path)}")
        if s.path in why:
            lines.append(f"{'':>10}  would be skipped: {one_line(why[s.path])}")
    verb = "would move" if dry_run else "to move"
    going = [s for s in chosen if s.path not in why]
    size = human_size(sum(s.size for s in going))
    lines.append(f"{verb} {count(len(going))} ({size}) {where}")
    if why:
        lines[-1] += f" ({len(why)} skipped, above)"
    return "\n".join(lines) + "\n"


def render_result(result: MoveResult, done: str) -> str:
    """What was skipped, what failed, then `done` (e.g. "moved 3 to the trash")."""
    lines = [f"skipped {one_line(p)}: {one_line(why)}" for p, why in result.skipped]
    lines += [f"failed {one_line(p)}: {one_line(why)}" for p, why in result.failed]
    lines.append(done)
    return "\n".join(lines) + "\n"


def to_json(
    chosen: list[SessionSummary], total: int, dry_run: bool, result: MoveResult | None
) -> dict[str, object]:
    """The report; a dry run's `skipped` holds the sessions the move would skip now."""
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


def skipped_now(
    chosen: list[SessionSummary], busy: Callable[[str], str | None]
) -> list[tuple[str, str]]:
    """The sessions the move would skip if run now, and why (as `move_each` says it): what
    a dry run says, as `pitui move --dry-run` does."""
    skips = []
    for s in chosen:
        try:
            why = busy(s.path)
        except PituiError as error:  # gone, or not a file, since it was selected
            why = str(error)
        if why is not None:
            skips.append((s.path, why))
    return skips


def _busy(args: argparse.Namespace, how: Moving) -> Callable[[str], str | None]:
    """Why a session is skipped (`--force`: never): another process may be writing it."""
    if getattr(args, "force", False):
        return lambda path: None
    return RemovalGuard().warning if how.takes_away else activity_warning


@dataclass(frozen=True)
class Moving:
    """Where the chosen sessions go ("to the trash"), how one is moved, and what is said
    after (given the number moved)."""

    where: str
    move: Callable[[str], object]
    done: Callable[[int], str]
    takes_away: bool = True  # from where pi writes: a pi running in its folder counts


def carry_out(args: argparse.Namespace, chosen: list[SessionSummary], how: Moving) -> int:
    """Show the choice; unless `--dry-run`, ask once (unless `--yes`) and move each session
    (one another program seems to be writing is skipped, unless `--force`)."""
    total = sum(s.size for s in chosen)
    would_skip = skipped_now(chosen, _busy(args, how)) if args.dry_run else []
    if not args.json:
        sys.stdout.write(render(chosen, args.dry_run, how.where, would_skip))
    if args.dry_run or not chosen:
        if args.json:
            preview = MoveResult(skipped=would_skip) if args.dry_run else None
            print_json(to_json(chosen, total, args.dry_run, preview))
        return 0
    if not args.yes and not confirm(
        f"Move {count(len(chosen))} ({human_size(total)}) {how.where}?"
    ):
        print("nothing was moved", file=sys.stderr)
        return 1
    with progress_on_stderr("moving sessions", quiet=args.json) as progress:
        result = move_each([s.path for s in chosen], how.move, _busy(args, how), progress)
    if args.json:
        print_json(to_json(chosen, total, False, result))
    else:
        sys.stdout.write(render_result(result, how.done(len(result.moved))))
    return 1 if result.failed else 0
