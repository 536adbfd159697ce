"""`pitui prune [--all | --session-dir DIR] [--empty] [--older-than D] [--larger-than S]
[--cwd-missing] [--query Q] [--dry-run] [--json] [--yes]`: sessions to the trash, in bulk."""

from __future__ import annotations

import argparse

from pitui.commands.support import selection
from pitui.core.changes.trash import trash_session
from pitui.core.errors import PituiError

TRASH = selection.Moving(
    "to the trash",
    lambda path: trash_session(path, force=True),  # guarded by the selection's skips
    lambda n: f"moved {n} to the trash (pitui restore --list to undo)",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    selection.add_arguments(parser, "trashed")


def run(args: argparse.Namespace) -> int:
    criteria = selection.criteria_of(args)
    if not criteria.any() and not args.query:
        raise PituiError(
            "say what to prune: --empty, --older-than, --larger-than, --cwd-missing or --query"
        )
    return selection.carry_out(args, selection.selected(args, criteria), TRASH)
