"""`pitui trash FILE`: move a session file to the system trash (never a permanent delete)."""

from __future__ import annotations

import argparse

from pitui.core.changes.command_errors import writing_from_command
from pitui.core.changes.file_messages import shown
from pitui.core.changes.trash import trash_session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")


def run(args: argparse.Namespace) -> int:
    with writing_from_command():
        trash_session(args.file)
    print(f"moved {shown(args.file)} to the trash")
    return 0
