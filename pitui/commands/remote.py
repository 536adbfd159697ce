"""`pitui remote add NAME HOST [--agent-dir DIR] [--pitui-command CMD] [--no-test]`, `pitui
remote set NAME [--host HOST] [--agent-dir DIR] [--pitui-command CMD]`, `pitui remote list
[--json]`, `pitui remote remove NAME`: the other machines whose sessions pitui mirrors. A
remote added (or changed) is connected to first, as a sync does: one that cannot be reached
is not added."""

from __future__ import annotations

import argparse
import json
import shutil
import sys

from pitui.core.remotes.config import (
    DEFAULT_AGENT_DIR,
    DEFAULT_PITUI_COMMAND,
    Remote,
    add_remote,
    changed_remote,
    check_remote,
    load_remotes,
    remove_remote,
    replace_remote,
)
from pitui.core.remotes.mirror import age_text, mirror_dir, synced_at
from pitui.core.remotes.remote_run import reach
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
    add.add_argument(
        "--no-test",
        action="store_true",
        help="add it without connecting first (a machine that is off now)",
    )
    change = actions.add_parser(
        "set", help="change a remote's host, agent folder or pitui command (its mirror kept)"
    )
    change.add_argument("name")
    change.add_argument("--host", help="an ssh alias, user@host or ssh://user@host:port")
    change.add_argument("--agent-dir", help="Pi's agent folder there")
    change.add_argument("--pitui-command", help="the command that runs pitui there")
    change.add_argument("--no-test", action="store_true", help="do not connect to it first")
    listing = actions.add_parser("list", help="the remotes and how old their mirrors are")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    remove = actions.add_parser("remove", help="forget a remote and drop its mirror")
    remove.add_argument("name")


def run(args: argparse.Namespace) -> int:
    if args.action == "add":
        remote = Remote(args.name, args.host, args.agent_dir, args.pitui_command)
        check_remote(remote)
        if args.name in load_remotes():
            add_remote(remote)  # refused, with what to do instead
        if not args.no_test:
            _warn(remote, reach(remote))  # unreachable: raised, nothing added
        add_remote(remote)
        print(f"added {remote.name} ({one_line(remote.host)}): pitui sync {remote.name} mirrors it")
    elif args.action == "set":
        remote = changed_remote(
            args.name, host=args.host, agent_dir=args.agent_dir, pitui_command=args.pitui_command
        )
        if not args.no_test:
            _warn(remote, reach(remote, "changed"))  # unreachable: raised, nothing changed
        replace_remote(remote)
        print(
            f"changed {remote.name}: {one_line(remote.host)}  {one_line(remote.agent_dir)}  "
            f"(pitui there: {one_line(remote.pitui_command)})"
        )
    elif args.action == "remove":
        remote = remove_remote(args.name)
        shutil.rmtree(mirror_dir(remote.name).parent, ignore_errors=True)
        print(f"removed {remote.name} and its mirror (the remote's sessions are untouched)")
    else:
        _list(args.json)
    return 0


def _warn(remote: Remote, missing: list[str]) -> None:
    for line in missing:
        print(f"pitui: {remote.name}: {line}", file=sys.stderr)


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
        pitui = (
            ""
            if r.pitui_command == DEFAULT_PITUI_COMMAND
            else f"  (pitui there: {one_line(r.pitui_command)})"
        )
        print(f"{r.name}  {one_line(r.host)}  {one_line(r.agent_dir)}{pitui}  ({age_text(r.name)})")
