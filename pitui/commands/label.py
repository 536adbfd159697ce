"""`pitui label FILE ENTRY_ID [TEXT] [--force]`: set (or, without TEXT, clear) a label."""

from __future__ import annotations

import argparse

from pitui.core.changes.writer import set_label


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("entry_id", help="id of the entry to label")
    parser.add_argument("text", nargs="?", help="the label (omit to clear it)")
    parser.add_argument(
        "--force", action="store_true", help="write even if another process seems to be writing"
    )


def run(args: argparse.Namespace) -> int:
    new_id = set_label(args.file, args.entry_id, args.text, force=args.force)
    action = "cleared the label of" if not args.text else "labelled"
    print(f"{action} {args.entry_id} (entry {new_id})")
    return 0
