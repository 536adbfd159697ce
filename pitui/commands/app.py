"""`pitui [FILE.jsonl] [options]`: the full-screen browser, then maybe a hand-off to pi."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from pitui.commands.terminal_mode import keys_as_typed
from pitui.core.catalog.scan import discovery
from pitui.core.errors import PituiError
from pitui.core.session.run_pi import run_handoff
from pitui.core.session.source import NotRegularFile, is_regular


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="open this session file directly")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="browse a generated demo store (written to a temporary folder)",
    )
    parser.add_argument(
        "--all", action="store_true", help="start with all sessions, not only this folder's"
    )
    parser.add_argument(
        "--session-dir", metavar="DIR", help="sessions folder (as pi --session-dir)"
    )
    parser.add_argument("--no-watch", action="store_true", help="do not follow file changes")
    parser.add_argument("--no-cache", action="store_true", help="do not use the index cache")
    parser.add_argument(
        "--pi-command",
        metavar="CMD",
        help="how to run pi for resume/fork (default $PITUI_PI_COMMAND or pi)",
    )


def run(args: argparse.Namespace) -> int:
    if args.file and args.demo:
        raise PituiError("give either a session file or --demo, not both")
    with keys_as_typed():
        result, code = _run_app(args)
    from pitui.ui.handoff import Handoff  # deferred: see ARCHITECTURE.md

    if isinstance(result, Handoff):
        return run_handoff(result.argv, result.cwd)
    return code


def _run_app(args: argparse.Namespace) -> tuple[Any, int]:
    demo_dir = Path(tempfile.mkdtemp(prefix="pitui-demo-")) if args.demo else None
    try:
        from pitui.ui.app import make_app  # deferred: see ARCHITECTURE.md

        options = _options(args, demo_dir)
        app = make_app(
            watch=not args.no_watch,
            no_cache=args.no_cache,
            pi_command=args.pi_command,
            keybindings=discovery.agent_dir() / "keybindings.json",  # the user's Pi keys
            **options,
        )
        result = app.run()
    finally:
        if demo_dir is not None:
            shutil.rmtree(demo_dir, ignore_errors=True)
    return result, app.return_code or 0


def _options(args: argparse.Namespace, demo_dir: Path | None) -> dict[str, object]:
    if args.file:
        file = Path(args.file).expanduser()
        if file.is_dir():
            raise PituiError(
                f"{args.file} is a folder, not a session file "
                "(pitui --session-dir DIR browses the sessions of a folder)"
            )
        if not file.exists():
            raise PituiError(f"no such session file: {args.file}")
        if not is_regular(file):
            raise NotRegularFile(file, file.stat().st_mode)
        return {"session_file": file}
    if demo_dir is not None:
        from pitui.demo.generate import write_demo_store  # deferred: see ARCHITECTURE.md

        _age(write_demo_store(demo_dir, base_ms=_recent_demo_base()))
        root = discovery.sessions_root({discovery.ENV_AGENT_DIR: str(demo_dir)})
        return {"sessions_root": root, "all_scope": True, "cache_dir": demo_dir / "cache"}
    return {
        "sessions_root": discovery.sessions_root(),
        "custom_dir": discovery.custom_session_dir(args.session_dir),
        "archive_dir": _archive_dir(),
        "mirrors": _mirrors(),
        "all_scope": args.all,
    }


def _archive_dir() -> Path | None:
    """pitui's archive, for the picker's archive scope (none where it overlaps the sessions
    root: `pitui archive` says why)."""
    archive = discovery.archive_root()
    return None if discovery.overlaps(archive, discovery.sessions_root()) else archive


def _mirrors() -> list[Any]:
    """Every remote's mirror: the picker lists them under `host:NAME` / `in:all` and syncs
    them while it shows their sessions."""
    from pitui.core.remotes.config import load_remotes  # deferred: see ARCHITECTURE.md
    from pitui.core.remotes.stores import mirror_of  # deferred: see ARCHITECTURE.md

    return [mirror_of(remote) for remote in load_remotes().values()]


def _recent_demo_base() -> int:
    """The demo's conversations span about five days: make the newest a few hours old."""
    six_days_ago = time.time() - 6 * 86_400
    return int(six_days_ago // 60) * 60_000


def _age(sessions: Path, seconds: float = 3600) -> None:
    """Demo files look an hour old: a just-written file makes writes ask if pi is writing."""
    then = time.time() - seconds
    for file in sessions.rglob("*.jsonl"):
        os.utime(file, (then, then))
