"""`pitui restore --list` / `pitui restore FILE|ID...`: sessions back from the trash."""

from __future__ import annotations

import argparse
import sys

from pitui.commands.support.json_output import print_json
from pitui.core.catalog.scan import discovery
from pitui.core.changes.restore import Trashed, find, list_trashed, restore
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sessions", nargs="*", help="original path, name in the trash or id")
    parser.add_argument("--list", action="store_true", help="list the sessions in the trash")
    parser.add_argument("--json", action="store_true", help="print JSON (with --list)")


def run(args: argparse.Namespace) -> int:
    if bool(args.list) == bool(args.sessions):
        raise PituiError("give --list, or the sessions to restore (path or id)")
    skipped: list[str] = []
    items = list_trashed(near=discovery.sessions_root(), skipped=skipped)
    for note in skipped:
        print(f"pitui: {one_line(note)}", file=sys.stderr)
    if args.list:
        _print_list(items, args.json)
        return 0
    chosen = [find(items, wanted) for wanted in args.sessions]
    failed = 0
    for item in dict.fromkeys(chosen):
        try:
            target = restore(item)
        except PituiError as error:
            print(f"pitui: {one_line(str(error))}", file=sys.stderr)
            failed += 1
        else:
            print(f"restored {one_line(str(target))}")
    return 1 if failed else 0


def _print_list(items: list[Trashed], as_json: bool) -> None:
    if as_json:
        data = [
            {
                "id": t.session_id,
                "original": str(t.original),
                "trashed": str(t.trashed),
                "deleted": t.deleted,
                "bytes": t.size,
            }
            for t in items
        ]
        print_json(data)
        return
    if not items:
        print("(no sessions in the trash)")
        return
    print(f"{'DELETED':<19}  {'ID':<36}  ORIGINAL PATH")
    for t in items:
        print(
            f"{one_line(t.deleted):<19}  {one_line(t.session_id):<36}  {one_line(str(t.original))}"
        )
