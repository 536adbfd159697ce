"""`pitui move OLD NEW [--dry-run] [--yes] [--force] [--json] [--session-dir DIR]`: the
sessions of a project folder moved or renamed from OLD to NEW (and of every folder under
it) go where Pi looks for NEW's, their header's cwd rewritten (`core/changes/relocate.py`).
`pitui move NEW OLD` undoes it."""

from __future__ import annotations

import argparse
import sys

from pitui.commands.progress import progress_on_stderr
from pitui.commands.selection import confirm, count, print_json
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan import discovery
from pitui.core.changes.move_file import TargetExists
from pitui.core.changes.relocate import Relocation, check_folders, plan, relocate
from pitui.core.changes.write_guard import activity_warning
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line


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
        sessions = [(s.path, s.cwd) for s in catalog.sessions() if isinstance(s.cwd, str)]
        moves = plan(sessions, old, new, root, custom)
        if not args.json:
            sys.stdout.write(_render(moves, old, new, args.dry_run))
        if args.dry_run or not moves:
            if args.json:
                print_json(_to_json(moves, args.dry_run, [], [], [], []))
            return 0
        if not args.yes and not confirm(f"Move {count(len(moves))}?"):
            print("nothing was moved", file=sys.stderr)
            return 1
        moved, skipped, failed, notes = _carry_out(moves, args.force)
        touched = [m.source for m in moves] + [m.target for m in moves]
        catalog.update_paths(touched)  # the index lists the new paths, not the old ones
    if args.json:
        print_json(_to_json(moves, False, moved, skipped, failed, notes))
    else:
        sys.stdout.write(_render_result(moved, skipped, failed, notes))
    return 1 if failed else 0


Outcome = tuple[Relocation, str]


def _carry_out(
    moves: list[Relocation], force: bool
) -> tuple[list[Relocation], list[Outcome], list[Outcome], list[str]]:
    """Move each session; one another process seems to write is skipped unless `force`."""
    moved: list[Relocation] = []
    skipped: list[Outcome] = []
    failed: list[Outcome] = []
    notes: list[str] = []
    for move in moves:
        try:
            warning = None if force else activity_warning(move.source)
            if warning is not None:
                skipped.append((move, f"{warning} (--force to move it anyway)"))
                continue
            done = relocate(move)
        except TargetExists as exists:
            skipped.append((move, str(exists)))
        except PituiError as error:
            failed.append((move, str(error)))
        else:
            moved.append(move)
            if done.note:
                notes.append(done.note)
    return moved, skipped, failed, notes


def _render(moves: list[Relocation], old: str, new: str, dry_run: bool) -> str:
    if not moves:
        return f"no session has its cwd in {one_line(old)}: nothing to move\n"
    lines = []
    for m in moves:
        lines.append(f"{one_line(str(m.source))}\n  -> {one_line(str(m.target))}")
        lines.append(f"     cwd {one_line(m.old_cwd)} -> {one_line(m.new_cwd)}")
    verb = "would move" if dry_run else "to move"
    lines.append(f"{verb} {count(len(moves))} from {one_line(old)} to {one_line(new)}")
    return "\n".join(lines) + "\n"


def _render_result(
    moved: list[Relocation], skipped: list[Outcome], failed: list[Outcome], notes: list[str]
) -> str:
    lines = [f"skipped {one_line(str(m.source))}: {one_line(why)}" for m, why in skipped]
    lines += [f"failed {one_line(str(m.source))}: {one_line(why)}" for m, why in failed]
    lines += [f"note: {one_line(note)}" for note in notes]
    lines.append(f"moved {count(len(moved))} (pitui move NEW OLD to undo)")
    return "\n".join(lines) + "\n"


def _to_json(
    moves: list[Relocation],
    dry_run: bool,
    moved: list[Relocation],
    skipped: list[Outcome],
    failed: list[Outcome],
    notes: list[str],
) -> dict[str, object]:
    def one(m: Relocation) -> dict[str, object]:
        return {
            "path": str(m.source),
            "target": str(m.target),
            "cwd": m.old_cwd,
            "newCwd": m.new_cwd,
        }

    return {
        "dryRun": dry_run,
        "selected": [one(m) for m in moves],
        "moved": [one(m) for m in moved],
        "skipped": [{"path": str(m.source), "reason": r} for m, r in skipped],
        "failed": [{"path": str(m.source), "reason": r} for m, r in failed],
        "notes": notes,
    }
