"""`pitui trash FILE [--force]`: move a session file to the system trash (never a permanent
delete); refused while another process seems to be writing it (or a pi running in its
folder may still be in it: `core/changes/removal_guard.py`), unless `--force`."""

from __future__ import annotations

import argparse

from pitui.commands.support.command_errors import writing_from_command
from pitui.core.changes.file_messages import shown
from pitui.core.changes.trash import trash_session
from pitui.core.userdata.identity import session_id_of

# A session of a remote's mirror is written there, by pitui on the remote, with the same
# arguments, before they are parsed (`commands/support/mirror_writes`).
FORWARDED_FOR_MIRRORS = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument(
        "--force", action="store_true", help="trash even if another process seems to be writing"
    )


def run(args: argparse.Namespace) -> int:
    with writing_from_command():
        session_id_of(args.file)  # only a session: `restore` finds nothing else again
        trash_session(args.file, force=args.force)
    print(f"moved {shown(args.file)} to the trash")
    return 0
