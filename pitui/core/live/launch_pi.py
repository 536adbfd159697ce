"""Handing a session to `pi`: argument lists (never a shell string), run after the TUI exits."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence

from pitui.core.errors import PituiError

ENV_VAR = "PITUI_PI_COMMAND"
DEFAULT_COMMAND = "pi"


def resolve_pi_command(cli_value: str | None) -> list[str]:
    """`--pi-command` > `$PITUI_PI_COMMAND` > `pi`, split like a POSIX shell would (no shell)."""
    for value in (cli_value, os.environ.get(ENV_VAR)):
        if value is not None and value.strip():
            return _split(value)
    return [DEFAULT_COMMAND]


def _split(value: str) -> list[str]:
    try:
        argv = shlex.split(value)
    except ValueError as error:
        raise PituiError(f"cannot parse the pi command {value!r}: {error}") from None
    if not argv:
        raise PituiError(f"the pi command {value!r} is empty")
    return argv


def resume_argv(session_path: str | os.PathLike[str], pi_command: Sequence[str]) -> list[str]:
    """`pi --session /abs/path.jsonl`: resume that very file."""
    return [*pi_command, "--session", os.path.abspath(session_path)]


def fork_argv(
    session_path: str | os.PathLike[str],
    pi_command: Sequence[str],
    session_dir: str | os.PathLike[str] | None = None,
) -> list[str]:
    """`pi --fork /abs/path.jsonl`: a new session copied from it, in the current folder; in
    `session_dir` when pitui reads a custom one (`--session-dir`), as pitui's own fork."""
    where = ["--session-dir", os.path.abspath(session_dir)] if session_dir else []
    return [*pi_command, "--fork", os.path.abspath(session_path), *where]


def handoff_cwd(header_cwd: str | None) -> str | None:
    """The folder to run pi in (the session's cwd), or None if it no longer exists."""
    if not header_cwd or not os.path.isdir(header_cwd):
        return None
    return header_cwd


def find_program(argv: Sequence[str]) -> str | None:
    """Full path of the program `argv[0]` (PATH lookup), or None if not found."""
    return shutil.which(argv[0]) if argv else None


def run_handoff(argv: Sequence[str], cwd: str | None) -> int:
    """Run pi (after the TUI has exited) and return its exit status."""
    if find_program(argv) is None:
        raise PituiError(f"cannot run {argv[0] if argv else 'pi'!r}: program not found")
    try:
        return subprocess.run(list(argv), cwd=cwd, check=False).returncode
    except OSError as error:
        raise PituiError(f"cannot run {argv[0]}: {error.strerror or error}") from None
