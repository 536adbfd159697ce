"""`pitui unarchive FILE|ID... [--dry-run] [--yes] [--json]`: archived sessions back to where
they were in Pi's session folder, never over a file."""

from __future__ import annotations

import argparse
from pathlib import Path

from pitui.commands.support import selection
from pitui.core.catalog.scan import discovery
from pitui.core.changes.archive import unarchive_session
from pitui.core.changes.prune import Criteria


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sessions", nargs="+", metavar="FILE|ID", help="archived files or ids")
    parser.add_argument("--dry-run", action="store_true", help="only say what would be moved")
    parser.add_argument("--yes", action="store_true", help="do not ask")
    parser.add_argument("--json", action="store_true", help="print JSON (as pitui archive)")


def run(args: argparse.Namespace) -> int:
    root, archive = discovery.sessions_root(), discovery.archive_root()
    args.all, args.session_dir, args.query = True, None, None
    chosen = selection.selected(args, Criteria(), store="archive", named=args.sessions)

    def move(path: str) -> None:
        unarchive_session(Path(path), root, archive)

    where = "out of the archive, back where each was"
    done = "moved {} back from the archive"
    return selection.carry_out(
        args, chosen, selection.Moving(where, move, done.format, takes_away=False)
    )
