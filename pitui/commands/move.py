"""`pitui move OLD NEW [--dry-run] [--yes] [--force] [--json] [--session-dir DIR]`: the
sessions of a project folder moved or renamed from OLD to NEW (and of every folder under
it) go where Pi looks for NEW's, their header's cwd rewritten (`core/changes/relocate.py`).
`pitui move NEW OLD` undoes it. Lines a pi still running at OLD wrote after its session
moved (a headerless file at the old path) join the moved session, now or on moving again."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pitui.commands.support.json_output import print_json
from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.selection import confirm, count
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan import discovery
from pitui.core.changes.continuation import Continuation, rejoin
from pitui.core.changes.relocate import (
    Outcome,
    Relocation,
    check_folders,
    left_behind,
    move_all,
    moved_cwd,
    moved_earlier,
    plan,
    skipped_now,
)
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.userdata.store import UserData


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("old", metavar="OLD", help="the project folder's old path")
    parser.add_argument("new", metavar="NEW", help="its new path")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--dry-run", action="store_true", help="only say what would move")
    parser.add_argument("--yes", action="store_true", help="do not ask")
    parser.add_argument(
        "--force", action="store_true", help="move even a session another process seems to write"
    )
    parser.add_argument("--json", action="store_true", help="print what moved as JSON")


def run(args: argparse.Namespace) -> int:
    old, new = check_folders(args.old, args.new)
    root = discovery.sessions_root()
    custom = discovery.custom_session_dir(args.session_dir)
    with Catalog(root, custom_dir=custom) as catalog:
        with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
            catalog.scan(progress, tools="later")
        listed = [s for s in catalog.sessions() if isinstance(s.cwd, str)]
        sessions = [(s.path, s.cwd) for s in listed]
        moves = plan(sessions, old, new, root, custom)
        under_new = [Path(p) for p, cwd in sessions if moved_cwd(cwd, new, new) is not None]
        behind = left_behind(old, under_new, root)  # a pi wrote at OLD since an earlier move
        would_skip = skipped_now(moves, force=args.force) if args.dry_run else []
        if not args.json:
            sys.stdout.write(_render(moves, old, new, args.dry_run, would_skip))
            sys.stdout.write(_render_behind(behind, args.dry_run))
        if args.dry_run or not (moves or behind):
            if args.json:
                print_json(_to_json(moves, args.dry_run, [], would_skip, [], [], Rejoined()))
            return 0
        if not args.yes and not confirm(_question(moves, behind)):
            print("nothing was moved", file=sys.stderr)
            return 1
        earlier = moved_earlier(sessions, old, new, root, custom)  # forks follow parents
        with progress_on_stderr("moving sessions", quiet=args.json) as progress:
            moved, skipped, failed, notes = move_all(
                moves, force=args.force, progress=progress, earlier=earlier
            )
        _remember_moves(moved, {s.path: s.id for s in listed}, old, new)
        behind += left_behind(old, [m.target for m in moved], root)  # made while it moved
        rejoined = _rejoin(behind)
        touched = [m.source for m in moves] + [m.target for m in moves]
        touched += [c.path for c in behind] + [c.session for c in behind]
        catalog.update_paths(touched)  # the index lists the new paths, not the old ones
    if args.json:
        print_json(_to_json(moves, False, moved, skipped, failed, notes, rejoined))
    else:
        sys.stdout.write(_render_result(moved, skipped, failed, notes, rejoined))
    return 1 if failed or rejoined.failed else 0


def _remember_moves(moved: list[Relocation], ids: dict[str, object], old: str, new: str) -> None:
    """For `pitui log` and `blame`: what these sessions wrote by absolute path under OLD is
    now under NEW (their headers keep only the new cwd)."""
    records = [(i, old, new) for m in moved if isinstance(i := ids.get(str(m.source)), str)]
    if not records:
        return
    try:
        UserData().record_cwd_moves(records)
    except PituiError as error:
        print(f"pitui: the move is done; {error}: `pitui log` will not follow it", file=sys.stderr)


def _question(moves: list[Relocation], behind: list[Continuation]) -> str:
    asked = [f"Move {count(len(moves))}"] if moves else []
    if behind:
        asked.append(f"join {_files(len(behind))} of lines a pi wrote at the old folder")
    return " and ".join(asked) + "?"


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


@dataclass
class Rejoined:
    """Continuations joined to their moved session (path, session, lines), and failures."""

    done: list[tuple[Continuation, int]] = field(default_factory=list)
    failed: list[tuple[Continuation, str]] = field(default_factory=list)


def _rejoin(behind: list[Continuation]) -> Rejoined:
    result = Rejoined()
    for continuation in behind:
        try:
            result.done.append((continuation, rejoin(continuation)))
        except PituiError as error:
            result.failed.append((continuation, str(error)))
    return result


def _render_behind(behind: list[Continuation], dry_run: bool) -> str:
    if not behind:
        return ""
    lines = [
        f"{inert_path(str(c.path))}\n  joins {inert_path(str(c.session))} (lines a pi wrote there "
        "after its session moved)"
        for c in behind
    ]
    verb = "would join" if dry_run else "to join"
    lines.append(f"{verb} {_files(len(behind))} to the sessions they continue")
    return "\n".join(lines) + "\n"


def _render(
    moves: list[Relocation], old: str, new: str, dry_run: bool, skips: list[Outcome]
) -> str:
    """The moves planned; a dry run says which the move would skip now, and why."""
    if not moves:
        return f"no session has its cwd in {one_line(old)}: nothing to move\n"
    why = {m.source: reason for m, reason in skips}
    lines = []
    for m in moves:
        lines.append(f"{one_line(str(m.source))}\n  -> {one_line(str(m.target))}")
        lines.append(f"     cwd {one_line(m.old_cwd)} -> {one_line(m.new_cwd)}")
        if m.source in why:
            lines.append(f"     would be skipped: {one_line(why[m.source])}")
    verb = "would move" if dry_run else "to move"
    going = count(len(moves) - len(skips))
    lines.append(f"{verb} {going} from {one_line(old)} to {one_line(new)}")
    if skips:
        lines[-1] += f" ({len(skips)} skipped, above)"
    return "\n".join(lines) + "\n"


def _render_result(
    moved: list[Relocation],
    skipped: list[Outcome],
    failed: list[Outcome],
    notes: list[str],
    rejoined: Rejoined,
) -> str:
    lines = [f"skipped {one_line(str(m.source))}: {one_line(why)}" for m, why in skipped]
    lines += [f"failed {one_line(str(m.source))}: {one_line(why)}" for m, why in failed]
    lines += [f"failed {inert_path(str(c.path))}: {one_line(why)}" for c, why in rejoined.failed]
    lines += [f"note: {one_line(note)}" for note in notes]
    for c, n in rejoined.done:
        lines.append(
            f"joined {n} line{'s' * (n != 1)} of {inert_path(str(c.path))} to "
            f"{one_line(str(c.session))} (a pi still running at the old folder writes there: "
            "restart it in the new one)"
        )
    if forks := sum(m.parent is not None for m in moved):
        plural = "s" * (forks != 1)
        lines.append(f"the parentSession of {forks} fork{plural} now names the parent's new path")
    lines.append(_outcome(moved, skipped, failed, rejoined))
    return "\n".join(lines) + "\n"


def _outcome(
    moved: list[Relocation], skipped: list[Outcome], failed: list[Outcome], rejoined: Rejoined
) -> str:
    """The last line: how many moved and how to undo it; with none moved (nothing to undo),
    what happened instead."""
    if moved:
        return f"moved {count(len(moved))} (pitui move NEW OLD to undo)"
    why = [f"{n} {what}" for n, what in ((len(skipped), "skipped"), (len(failed), "failed")) if n]
    said = "no session was moved" + (f" ({', '.join(why)}, above)" if why else "")
    if rejoined.done:
        said = f"joined {_files(len(rejoined.done))} to the sessions they continue; {said}"
    return said


def _to_json(
    moves: list[Relocation],
    dry_run: bool,
    moved: list[Relocation],
    skipped: list[Outcome],
    failed: list[Outcome],
    notes: list[str],
    rejoined: Rejoined,
) -> dict[str, object]:
    def one(m: Relocation) -> dict[str, object]:
        found: dict[str, object] = {
            "path": str(m.source),
            "target": str(m.target),
            "cwd": m.old_cwd,
            "newCwd": m.new_cwd,
        }
        if m.parent is not None:
            found["parentSession"], found["newParentSession"] = m.parent
        return found

    return {
        "dryRun": dry_run,
        "selected": [one(m) for m in moves],
        "moved": [one(m) for m in moved],
        "skipped": [{"path": str(m.source), "reason": r} for m, r in skipped],
        "failed": [{"path": str(m.source), "reason": r} for m, r in failed],
        "notes": notes,
        "rejoined": [
            {"path": str(c.path), "session": str(c.session), "lines": n} for c, n in rejoined.done
        ],
        "rejoinFailed": [{"path": str(c.path), "reason": r} for c, r in rejoined.failed],
    }
