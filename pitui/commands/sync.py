"""`pitui sync [NAME...] [--json]`: mirror each remote's session files (rsync over ssh) into
pitui's cache folder. A remote that cannot be reached is one line; its last mirror stays."""

from __future__ import annotations

import argparse
import json
import sys

from pitui.core.remotes.config import chosen_remotes
from pitui.core.remotes.mirror import age_text
from pitui.core.remotes.sync import SyncResult, sync_remote
from pitui.core.rows.safe_text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="remotes to sync (else: all)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    remotes = chosen_remotes(args.names)
    if not remotes:
        print("pitui: no remotes to sync (pitui remote add NAME HOST)", file=sys.stderr)
        return 1
    results = [sync_remote(remote) for remote in remotes]
    if args.json:
        data = {"remotes": [r.to_json() for r in results], "bytes": sum(r.bytes for r in results)}
        print(json.dumps(data, indent=2))
    else:
        for result in results:
            _say(result)
    return 1 if any(r.error for r in results) else 0


def _say(result: SyncResult) -> None:
    if result.error:
        kept = age_text(result.name)
        print(
            f"pitui: {result.name}: {one_line(result.error)} (mirror kept: {kept})", file=sys.stderr
        )
        return
    print(f"{result.name}: {result.files} files, {result.bytes} bytes in {result.seconds:.1f} s")
