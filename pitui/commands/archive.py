"""`pitui archive [FILE|ID...] [--all | --session-dir DIR] [--empty] [--older-than D]
[--larger-than S] [--cwd-missing] [--query Q] [--dry-run] [--yes] [--json]`: sessions out of
Pi's session folder into pitui's archive (`pitui unarchive` brings them back)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pitui.commands.support import selection
from pitui.core.catalog.scan import discovery
from pitui.core.changes.archive import archive_session, check_places
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "sessions", nargs="*", metavar="FILE|ID", help="session files or ids (else: --query ...)"
    )
    selection.add_arguments(parser, "archived")


def run(args: argparse.Namespace) -> int:
    criteria = selection.criteria_of(args)
    if not args.sessions and not criteria.any() and not args.query:
        raise PituiError(
            "say what to archive: FILE or ID, --empty, --older-than, --larger-than, "
            "--cwd-missing or --query"
        )
    root, archive = discovery.sessions_root(), discovery.archive_root()
    custom = discovery.custom_session_dir(args.session_dir)
    check_places(archive, root)
    if custom is not None:
        check_places(archive, custom)
    chosen = selection.selected(args, criteria, named=args.sessions)
    cwds = {s.path: s.cwd for s in chosen}

    def move(path: str) -> None:
        archive_session(Path(path), root, archive, cwds.get(path) or os.getcwd())

    where = f"to the archive ({one_line(str(archive))})"
    done = "moved {} to the archive (pitui list --archived --all; pitui unarchive FILE|ID to undo)"
    return selection.carry_out(args, chosen, selection.Moving(where, move, done.format))
