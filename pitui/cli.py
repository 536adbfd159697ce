"""The `pitui` command: the app by default, or one of the subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pitui.commands.support.mirror_writes import run_on_its_remote
from pitui.commands.support.streams import escape_what_cannot_be_written
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line
from pitui.core.version import pitui_version

SUBCOMMANDS = {
    "context": "print the LLM context of a leaf",
    "tree": "print a session's entry tree",
    "list": "list and search sessions",
    "grep": "search entries across sessions",
    "log": "the writes and edits that touched a file, across sessions",
    "blame": "which session and entry wrote each line of a file",
    "label": "set or clear the label of an entry",
    "name": "name a session",
    "trash": "move a session to the trash",
    "stats": "usage and cost across sessions",
    "du": "what makes sessions large",
    "secrets": "credentials found in sessions (values masked)",
    "prune": "move selected sessions to the trash",
    "restore": "bring back Pi sessions from the trash (moved there by pitui or any other tool)",
    "archive": "move selected sessions out of Pi's session folder into pitui's archive",
    "unarchive": "move archived sessions back to where they were",
    "move": "move a project's sessions to its new folder (after the folder moved)",
    "fork": "write a new session from the path to one entry",
    "context-edit": "omit or replace a message in the model's future context",
    "pin": "pin sessions to the top of the list",
    "unpin": "unpin sessions",
    "tag": "add tags to a session",
    "untag": "remove tags from a session",
    "export": "export a branch or a context as Markdown, HTML or JSONL",
    "check": "report where sessions depart from Pi's format",
    "mcp": "serve sessions to agents (MCP over stdio, read-only)",
    "remote": "add, change, list or remove the machines whose sessions pitui mirrors",
    "sync": "mirror the remotes' sessions (rsync over ssh)",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in SUBCOMMANDS:
            escape_what_cannot_be_written()
            return _run_subcommand(args[0], args[1:])
        module = importlib.import_module("pitui.commands.app")
        parser = argparse.ArgumentParser(
            prog="pitui",
            description=_description(),
            formatter_class=argparse.RawDescriptionHelpFormatter,  # one subcommand a line
        )
        parser.add_argument("--version", action="version", version=f"pitui {pitui_version()}")
        module.add_arguments(parser)
        return int(module.run(parser.parse_args(args)) or 0)
    except PituiError as error:  # a path or session text in it never reaches the terminal raw
        print(f"pitui: {one_line(str(error))}", file=sys.stderr)
        return error.exit_status
    except MemoryError:  # a file larger than memory that nothing above could refuse
        print("pitui: out of memory", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _run_subcommand(name: str, args: list[str]) -> int:
    module = importlib.import_module(f"pitui.commands.{name.replace('-', '_')}")
    forwarded = run_on_its_remote(name, module, args)  # a mirrored session's write
    if forwarded is not None:
        return forwarded
    parser = argparse.ArgumentParser(prog=f"pitui {name}", description=SUBCOMMANDS[name])
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args)) or 0)


def _description() -> str:
    lines = ["Browse Pi coding-agent sessions.", "", "subcommands:"]
    width = max(map(len, SUBCOMMANDS))  # one column for every description
    lines += [f"  pitui {name:<{width}}  {help}" for name, help in SUBCOMMANDS.items()]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
