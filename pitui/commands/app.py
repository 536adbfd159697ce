"""`pitui [FILE.jsonl] [options]`: the full-screen browser, then maybe a hand-off to pi."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pitui.commands.support.terminal_mode import keys_as_typed, opening_splash
from pitui.core.catalog.scan import discovery
from pitui.core.errors import PituiError
from pitui.core.live.launch_pi import run_handoff
from pitui.core.regular_file import NotRegularFile, is_regular


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="open this session file directly")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="browse a generated demo store (in a temporary folder that holds its pins, tags "
        "and trash too, removed on exit)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="start with all sessions (and the remotes' mirrored ones), not only this folder's",
    )
    parser.add_argument(
        "--no-remotes",
        action="store_true",
        help="leave the remotes' mirrored sessions out of all sessions (as the query's "
        "in:local; host:NAME still lists a remote's)",
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


def require_terminal() -> None:
    """The browser draws on a terminal and reads keys from one: without, it would write
    escapes into a file or a pipe and wait for keys that never come."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PituiError(
            "the browser needs a terminal (stdin and stdout); pitui list prints the sessions"
        )


def run(args: argparse.Namespace) -> int:
    code = _run(args)
    _end_now_if_workers_remain(code)
    return code


def _run(args: argparse.Namespace) -> int:
    if args.file == "":
        raise PituiError("no such session file: '' (an empty name)")
    if args.file and args.demo:
        raise PituiError("give either a session file or --demo, not both")
    with _demo_folder() if args.demo else contextlib.nullcontext() as demo_dir:
        with keys_as_typed():
            result, code = _run_app(args, demo_dir)
        from pitui.ui.handoff import Handoff  # deferred: Textual, ~0.3 s off `pitui --help`

        if isinstance(result, Handoff):  # pi resumes a demo session: its folder stays till then
            return run_handoff(result.argv, result.cwd)
        return code


def _end_now_if_workers_remain(code: int) -> None:
    """A worker thread still running after the app quit and gave it its grace (a credential
    scan of a 300 MB session, inside a Rust extension): Python's exit would end it there,
    and the process aborted ("FATAL: exception not rethrown", exit status 134). Everything
    of the app is closed by now: the process ends without that step."""
    if any(t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _run_app(args: argparse.Namespace, demo_dir: Path | None) -> tuple[Any, int]:
    keybindings = discovery.agent_dir() / "keybindings.json"  # the user's Pi keys
    with _demo_environment(demo_dir) if demo_dir else contextlib.nullcontext():
        options = _options(args, demo_dir)  # a wrong file or setting is said first
        require_terminal()
        with opening_splash(args.file) if args.file else contextlib.nullcontext():
            from pitui.ui.app import make_app  # deferred: Textual, ~0.3 s off `pitui --help`

            app = make_app(
                watch=not args.no_watch,
                no_cache=args.no_cache,
                pi_command=args.pi_command,
                keybindings=keybindings,
                **options,
            )
        result = app.run()
    return result, app.return_code or 0


@contextlib.contextmanager
def _demo_folder() -> Iterator[Path]:
    """The demo's folder, removed when pitui (and a pi it handed a demo session to) ends."""
    demo_dir = Path(tempfile.mkdtemp(prefix="pitui-demo-"))
    try:
        yield demo_dir
    finally:
        shutil.rmtree(demo_dir, ignore_errors=True)


# The folders the app writes to besides the sessions, by the variables that move them: pins
# and tags (pitui's data folder), settings, the trash (the freedesktop home trash is
# $XDG_DATA_HOME/Trash, used for a file on the device of $HOME), temporary files.
DEMO_FOLDERS = {
    "PITUI_DATA_DIR": "data/pitui",
    "PITUI_CONFIG_DIR": "config/pitui",
    "PITUI_CACHE_DIR": "cache/pitui",
    "XDG_DATA_HOME": "data",
    "XDG_CONFIG_HOME": "config",
    "XDG_CACHE_HOME": "cache",
    "XDG_STATE_HOME": "state",
    "HOME": "home",
    "TMPDIR": "tmp",
}


@contextlib.contextmanager
def _demo_environment(demo_dir: Path) -> Iterator[None]:
    """While the demo runs, every folder the app writes to is inside `demo_dir` (the user's
    pins, tags, trash and settings stay untouched); the settings start as the user's own (the
    theme). Restored afterwards: a pi resuming a demo session runs in the user's own."""
    from pitui.ui.settings import settings_path  # deferred: ~9 ms off `pitui --help`

    user_settings = settings_path()
    saved = {name: os.environ.get(name) for name in DEMO_FOLDERS}
    for name, folder in DEMO_FOLDERS.items():
        (demo_dir / folder).mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(demo_dir / folder)
    with contextlib.suppress(OSError):
        shutil.copyfile(user_settings, settings_path())
    tempfile.tempdir = None  # read again from TMPDIR
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        tempfile.tempdir = None


def _options(args: argparse.Namespace, demo_dir: Path | None) -> dict[str, Any]:
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
        # deferred: the demo generator, ~11 ms off the first frame
        from pitui.demo.generate import write_demo_store

        _age(write_demo_store(demo_dir, base_ms=_recent_demo_base()))
        root = discovery.sessions_root({discovery.ENV_AGENT_DIR: str(demo_dir)})
        return {"sessions_root": root, "all_scope": True, "cache_dir": demo_dir / "cache"}
    return {
        "sessions_root": discovery.sessions_root(),
        "custom_dir": discovery.custom_session_dir(args.session_dir),
        "archive_dir": _archive_dir(),
        "mirrors": _mirrors(),
        "all_scope": args.all,
        "remotes_in_all": not args.no_remotes,
    }


def _archive_dir() -> Path | None:
    """pitui's archive, for the picker's archive scope (none where it overlaps the sessions
    root: `pitui archive` says why)."""
    archive = discovery.archive_root()
    return None if discovery.overlaps(archive, discovery.sessions_root()) else archive


def _mirrors() -> list[Any]:
    """Every remote's mirror: the picker lists them with all sessions (unless --no-remotes),
    under `host:NAME` / `in:all`, and syncs them while it shows their sessions."""
    from pitui.core.remotes.config import load_remotes  # deferred: ~5 ms off `pitui --help`

    # deferred: ssh and the mirrors, ~29 ms off `pitui --help`
    from pitui.core.remotes.stores import mirror_of

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
