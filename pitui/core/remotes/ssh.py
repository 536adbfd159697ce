"""How pitui runs ssh: `$PITUI_SSH_COMMAND` (default `ssh`, as git's `GIT_SSH_COMMAND`),
never prompting (BatchMode), always as an argument list (never a local shell). A command run
on the remote goes through the remote's shell: every part of it is quoted for that shell."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from urllib.parse import urlsplit

from pitui.core.errors import UsageError
from pitui.core.rows.safe_text import one_line

SSH_COMMAND_ENV = "PITUI_SSH_COMMAND"
# the user's own options come first, and ssh keeps the first value it gets for an option
NEVER_PROMPT = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=15"]


@dataclass(frozen=True)
class Target:
    """Where ssh connects: a destination (alias or `user@host`) and maybe a port."""

    destination: str
    port: int | None = None

    def options(self) -> list[str]:
        return ["-p", str(self.port)] if self.port is not None else []


def target_of(host: str) -> Target:
    """`ssh://[user@]host[:port]` split (rsync does not take the URI form); else as given."""
    if not host.startswith("ssh://"):
        return Target(host)
    parts = urlsplit(host)
    try:
        port = parts.port
    except ValueError:
        raise UsageError(f"{one_line(host)!r}: not a port") from None
    if not parts.hostname or parts.path not in ("", "/"):
        raise UsageError(f"{one_line(host)!r} is not ssh://[user@]host[:port]")
    netloc = parts.netloc
    if port is not None:
        netloc = netloc[: netloc.rindex(":")]
    return Target(netloc, port)


def ssh_command() -> list[str]:
    """The ssh program and the user's options, then pitui's (never prompting)."""
    chosen = os.environ.get(SSH_COMMAND_ENV, "").strip() or "ssh"
    try:
        words = shlex.split(chosen)
    except ValueError as error:
        raise UsageError(f"{SSH_COMMAND_ENV}: {error}") from None
    return [*words, *NEVER_PROMPT]


def ssh_argv(host: str, remote_command: str, *, tty: bool = False) -> list[str]:
    """ssh to `host` running `remote_command` (already quoted for the remote shell)."""
    target = target_of(host)
    tty_option = ["-t"] if tty else []
    return [
        *ssh_command(),
        *tty_option,
        *target.options(),
        "--",
        target.destination,
        remote_command,
    ]


def remote_path_word(path: str) -> str:
    """`path` quoted for the remote shell, a leading `~/` left to it to expand."""
    if path == "~":
        return "~"
    if path.startswith("~/"):
        return "~/" + shlex.quote(path[2:])
    return shlex.quote(path)


def rsync_path(path: str) -> str:
    """`path` as rsync's remote side takes it literally (secluded args): a `~/` path is
    relative to the remote's home, where it starts."""
    if path == "~":
        return "."
    return path[2:] if path.startswith("~/") else path
