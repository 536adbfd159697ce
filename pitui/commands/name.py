"""`pitui name FILE NAME [--force]`: name a session (an empty name clears it)."""

from __future__ import annotations

import argparse

from pitui.commands.support.command_errors import writing_from_command
from pitui.commands.support.utf8_arguments import utf8_argument
from pitui.core.changes.file_messages import shown
from pitui.core.changes.writer import sanitize_name, set_name

# A session of a remote's mirror is written there, by pitui on the remote, with the same
# arguments, before they are parsed (`commands/support/mirror_writes`).
FORWARDED_FOR_MIRRORS = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("name", help="the session's new name (empty clears it)")
    parser.add_argument(
        "--force", action="store_true", help="write even if another process seems to be writing"
    )


def run(args: argparse.Namespace) -> int:
    utf8_argument(args.name, "name")
    with writing_from_command():
        new_id = set_name(args.file, args.name, force=args.force)
    name = sanitize_name(args.name)
    print(
        f"named the session {shown(repr(name))} (entry {new_id})"
        if name
        else f"cleared the name (entry {new_id})"
    )
    return 0
