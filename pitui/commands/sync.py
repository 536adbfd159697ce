"""`pitui sync [NAME...] [--json]`: mirror each remote's session files (rsync over ssh) into
pitui's cache folder. A remote that cannot be reached is one line; its last mirror stays."""

from __future__ import annotations

import argparse
import json
import sys

from pitui.commands.support.progress import progress_on_stderr
from pitui.core.remotes.config import Remote, chosen_remotes
from pitui.core.remotes.mirror import age_text
from pitui.core.remotes.sync import SyncResult, sync_remote
from pitui.core.rows.safe_text import one_line
from pitui.core.size_text import human_size


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="remotes to sync (else: all)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    remotes = chosen_remotes(args.names)
    if not remotes:
        print("pitui: no remotes to sync (pitui remote add NAME HOST)", file=sys.stderr)
        return 1
    results = []
    for remote in remotes:  # each said when it is done, the next one's progress after it
        results.append(_sync(remote, quiet=args.json))
        if not args.json:
            _say(results[-1])
    if args.json:
        for result in results:  # the JSON says them too; stderr is for a person
            if result.warning:
                print(f"pitui: {result.name}: {one_line(result.warning)}", file=sys.stderr)
        data = {"remotes": [r.to_json() for r in results], "bytes": sum(r.bytes for r in results)}
        print(json.dumps(data, indent=2))
    return 1 if any(r.error for r in results) else 0


def _sync(remote: Remote, *, quiet: bool) -> SyncResult:
    """One remote synced, rsync's progress on stderr while it is a terminal."""
    with progress_on_stderr(f"syncing {one_line(remote.name)}", quiet=quiet, percent=True) as bar:
        return sync_remote(remote, bar)


def _say(result: SyncResult) -> None:
    if result.error:
        kept = age_text(result.name)
        print(
            f"pitui: {result.name}: {one_line(result.error)} (mirror kept: {kept})", file=sys.stderr
        )
        return
    print(
        f"{result.name}: {result.files} files, {result.bytes} bytes in {result.seconds:.1f} s; "
        f"the mirror holds {human_size(result.mirror_bytes)}",
        flush=True,
    )
    for said in (result.note, result.warning):
        if said:
            print(f"pitui: {result.name}: {one_line(said)}", file=sys.stderr)
