"""`pitui trash FILE`: move a session file to the system trash (never a permanent delete)."""

from __future__ import annotations

import argparse

from pitui.core.changes.trash import trash_session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")


def run(args: argparse.Namespace) -> int:
    trash_session(args.file)
    print(f"moved {args.file} to the trash")
    return 0
