"""`pitui label FILE ENTRY_ID [TEXT] [--force]`: set (or, without TEXT, clear) a label.

TEXT is trimmed, and an empty one clears the label, as in Pi's /tree label editor.
"""

from __future__ import annotations

import argparse

from pitui.commands.support.command_errors import writing_from_command
from pitui.commands.support.utf8_arguments import utf8_argument
from pitui.core.changes.file_messages import shown
from pitui.core.changes.writer import label_text, set_label

# A session of a remote's mirror is written there, by pitui on the remote, with the same
# arguments, before they are parsed (`commands/support/mirror_writes`).
FORWARDED_FOR_MIRRORS = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("entry_id", help="id of the entry to label")
    parser.add_argument("text", nargs="?", help="the label (omit, or blank, to clear it)")
    parser.add_argument(
        "--force", action="store_true", help="write even if another process seems to be writing"
    )


def run(args: argparse.Namespace) -> int:
    text = label_text(utf8_argument(args.text, "label"))
    with writing_from_command():
        new_id = set_label(args.file, args.entry_id, text, force=args.force)
    action = "labelled" if text else "cleared the label of"
    print(f"{action} {shown(args.entry_id)} (entry {new_id})")
    return 0
