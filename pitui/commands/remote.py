"""`pitui remote add NAME HOST [--agent-dir DIR] [--pitui-command CMD]`, `pitui remote list
[--json]`, `pitui remote remove NAME`: the other machines whose sessions pitui mirrors."""

from __future__ import annotations

import argparse
import json
import shutil

from pitui.core.remotes.config import (
    DEFAULT_AGENT_DIR,
    DEFAULT_PITUI_COMMAND,
    Remote,
    add_remote,
    load_remotes,
    remove_remote,
)
from pitui.core.remotes.mirror import age_text, mirror_dir, synced_at
from pitui.core.rows.safe_text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)
    add = actions.add_parser("add", help="add a remote (HOST: as ssh accepts it)")
    add.add_argument("name", help="the remote's name in pitui (host:NAME in searches)")
    add.add_argument("host", help="an ssh alias, user@host or ssh://user@host:port")
    add.add_argument(
        "--agent-dir",
        default=DEFAULT_AGENT_DIR,
        help=f"Pi's agent folder there ({DEFAULT_AGENT_DIR})",
    )
    add.add_argument(
        "--pitui-command",
        default=DEFAULT_PITUI_COMMAND,
        help="the command that runs pitui there, for labels, names and trash (pitui)",
    )
    listing = actions.add_parser("list", help="the remotes and how old their mirrors are")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    remove = actions.add_parser("remove", help="forget a remote and drop its mirror")
    remove.add_argument("name")


def run(args: argparse.Namespace) -> int:
    if args.action == "add":
        remote = Remote(args.name, args.host, args.agent_dir, args.pitui_command)
        add_remote(remote)
        print(f"added {remote.name} ({one_line(remote.host)}): pitui sync {remote.name} mirrors it")
    elif args.action == "remove":
        remote = remove_remote(args.name)
        shutil.rmtree(mirror_dir(remote.name).parent, ignore_errors=True)
        print(f"removed {remote.name} and its mirror (the remote's sessions are untouched)")
    else:
        _list(args.json)
    return 0


def _list(as_json: bool) -> None:
    remotes = sorted(load_remotes().values(), key=lambda r: r.name)
    if as_json:
        data = [
            {
                "name": r.name,
                "host": r.host,
                "agentDir": r.agent_dir,
                "pituiCommand": r.pitui_command,
                "mirror": str(mirror_dir(r.name)),
                "synced": synced_at(r.name),
            }
            for r in remotes
        ]
        print(json.dumps(data, indent=2))
        return
    if not remotes:
        print("(no remotes: pitui remote add NAME HOST)")
    for r in remotes:
        print(f"{r.name}  {one_line(r.host)}  {one_line(r.agent_dir)}  ({age_text(r.name)})")
