"""`pitui fork FILE --leaf ID [--session-dir DIR] [--json]`: a new session of one path."""

from __future__ import annotations

import argparse
import json

from pitui.core.changes.fork import fork_session
from pitui.core.rows.safe_text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file to fork (it is not changed)")
    parser.add_argument("--leaf", required=True, help="id of the entry the new session ends at")
    parser.add_argument(
        "--session-dir", help="folder for the new file (default: the source's folder)"
    )
    parser.add_argument("--json", action="store_true", help='print {"path": ..., "id": ...}')


def run(args: argparse.Namespace) -> int:
    result = fork_session(args.file, args.leaf, args.session_dir)
    if args.json:
        print(json.dumps({"path": str(result.path), "id": result.session_id}))
    else:
        print(one_line(str(result.path)))  # the folder name is the session's cwd: untrusted
    return 0
