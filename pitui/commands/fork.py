"""`pitui fork FILE --leaf ID [--session-dir DIR] [--json]`: a new session of one path."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from pitui.core.changes.first_line import header_cwd
from pitui.core.changes.fork import fork_session
from pitui.core.remotes.mirror import local_fork_folder
from pitui.core.rows.safe_text import inert_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file to fork (it is not changed)")
    parser.add_argument("--leaf", required=True, help="id of the entry the new session ends at")
    parser.add_argument(
        "--session-dir",
        help="folder for the new file (default: the source's folder; for a remote's mirrored "
        "session, this machine's folder of its cwd)",
    )
    parser.add_argument("--json", action="store_true", help='print {"path": ..., "id": ...}')


def run(args: argparse.Namespace) -> int:
    folder = args.session_dir or _fork_folder(Path(args.file))
    result = fork_session(args.file, args.leaf, folder)
    if args.json:
        print(json.dumps({"path": str(result.path), "id": result.session_id}))
    else:
        print(inert_path(str(result.path)))  # the folder name is the session's cwd: untrusted
    return 0


def _fork_folder(source: Path) -> Path | None:
    """Not the mirror of a remote (its next sync would delete the fork): this machine's."""
    return local_fork_folder(source, header_cwd(source) or os.getcwd())
