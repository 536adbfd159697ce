"""The remotes pitui knows, kept in `remotes.json` in pitui's config folder.

A remote: a NAME (a store name in listings and searches, `host:NAME`), a HOST as `ssh`
accepts it (an alias, `user@host`, `ssh://user@host:port`), the agent folder there (default
`~/.pi/agent`) and the command that runs pitui there (default `pitui`).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from pitui.core.errors import PituiError, UsageError
from pitui.core.regular_file import NotRegularFile, file_kind, read_small
from pitui.core.remotes.ssh import target_of
from pitui.core.rows.safe_text import one_line
from pitui.core.user_dirs import config_dir

DEFAULT_AGENT_DIR = "~/.pi/agent"
DEFAULT_PITUI_COMMAND = "pitui"
RESERVED_NAMES = ("local", "archive", "all", "everywhere")
REMOTES_LIMIT = 4 * 1024 * 1024  # a remote is a line or two: larger is not pitui's file
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_BLANK_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Remote:
    name: str
    host: str
    agent_dir: str = DEFAULT_AGENT_DIR
    pitui_command: str = DEFAULT_PITUI_COMMAND

    @property
    def sessions_dir(self) -> str:
        """The remote's session folder (Pi's default layout under its agent folder)."""
        return self.agent_dir.rstrip("/") + "/sessions"


def remotes_file() -> Path:
    return config_dir() / "remotes.json"


def load_remotes() -> dict[str, Remote]:
    """The remotes, by name (none when the file does not exist)."""
    path = remotes_file()
    try:
        raw = json.loads(read_small(path, REMOTES_LIMIT))  # never waits on a FIFO
    except FileNotFoundError:
        return {}
    except NotRegularFile as error:
        kind = file_kind(error.mode)
        raise PituiError(
            f"cannot read {one_line(str(path))}: not a regular file ({kind})"
        ) from None
    except OSError as error:
        raise PituiError(f"cannot read {one_line(str(path))}: {error.strerror}") from None
    except ValueError as error:
        raise PituiError(f"cannot read {one_line(str(path))}: {error}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("remotes"), list):
        raise PituiError(f"{one_line(str(path))} is not a list of remotes")
    found: dict[str, Remote] = {}
    for item in raw["remotes"]:
        remote = _remote_of(item)
        if remote is not None:
            found[remote.name] = remote
    return found


def _remote_of(item: object) -> Remote | None:
    if not isinstance(item, dict):
        return None
    values = [item.get(k) for k in ("name", "host", "agent_dir", "pitui_command")]
    texts = [v for v in values if isinstance(v, str)]
    if len(texts) != len(values):
        return None
    remote = Remote(*texts)
    try:
        check_remote(remote)
    except UsageError:
        return None
    return remote


def save_remotes(remotes: dict[str, Remote]) -> None:
    """Write the remotes (a temporary file renamed over the old one)."""
    path = remotes_file()
    data = {"remotes": [asdict(r) for r in sorted(remotes.values(), key=lambda r: r.name)]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise PituiError(f"cannot write {one_line(str(path))}: {error.strerror}") from None


def check_remote(remote: Remote) -> None:
    """Refuse what could not be a store name, or would reach ssh as an option."""
    if not _NAME.fullmatch(remote.name) or remote.name.lower() in RESERVED_NAMES:
        raise UsageError(
            f"{one_line(remote.name)!r} cannot name a remote: letters, digits, '.', '_', '-' "
            f"(not {', '.join(RESERVED_NAMES)})"
        )
    check_host(remote.host)
    for value in (remote.host, remote.agent_dir, remote.pitui_command):
        if _CONTROL.search(value):
            raise UsageError(f"{one_line(value)!r} holds a control character")
    if not remote.agent_dir.strip() or not remote.pitui_command.strip():
        raise UsageError("the agent folder and the pitui command cannot be empty")


def check_host(host: str) -> None:
    """Refuse a host whose user, host name or port could reach ssh or rsync as an option
    (`ssh://-oProxyCommand=...`, `me@-oProxyCommand=...`: rsync passes `-l me` and the
    host name on its own) or holds a space or a control character."""
    target = target_of(host)  # ssh://[user@]host[:port] split; a bad port refused
    user, at, name = target.destination.rpartition("@")
    parts = [user, name] if at else [name]
    if target.port is not None:
        parts.append(str(target.port))
    for part in parts:
        if not part or part.startswith("-") or _BLANK_OR_CONTROL.search(part):
            raise UsageError(
                f"{one_line(host)!r} is not a host ssh accepts (no part may be empty, start "
                "with '-' or hold a space or a control character)"
            )


def add_remote(remote: Remote) -> None:
    check_remote(remote)
    remotes = load_remotes()
    if remote.name in remotes:
        raise UsageError(
            f"a remote is already named {remote.name} (pitui remote set {remote.name} changes "
            "its host, agent folder or pitui command)"
        )
    remotes[remote.name] = remote
    save_remotes(remotes)


def changed_remote(
    name: str,
    *,
    host: str | None = None,
    agent_dir: str | None = None,
    pitui_command: str | None = None,
) -> Remote:
    """The remote `name` with the given fields changed (not saved: `replace_remote`)."""
    old = load_remotes().get(name)
    if old is None:
        raise UsageError(f"no remote is named {one_line(name)} (pitui remote list)")
    new = Remote(
        name,
        old.host if host is None else host,
        old.agent_dir if agent_dir is None else agent_dir,
        old.pitui_command if pitui_command is None else pitui_command,
    )
    check_remote(new)
    return new


def replace_remote(remote: Remote) -> None:
    """Save `remote` over the one of its name (its mirror is kept)."""
    remotes = load_remotes()
    remotes[remote.name] = remote
    save_remotes(remotes)


def remove_remote(name: str) -> Remote:
    remotes = load_remotes()
    remote = remotes.pop(name, None)
    if remote is None:
        raise UsageError(f"no remote is named {one_line(name)} (pitui remote list)")
    save_remotes(remotes)
    return remote


def chosen_remotes(names: list[str]) -> list[Remote]:
    """The named remotes (all when none is named); an unknown name is refused."""
    remotes = load_remotes()
    unknown = [n for n in names if n not in remotes]
    if unknown:
        raise UsageError(f"no remote is named {one_line(unknown[0])} (pitui remote list)")
    return [remotes[n] for n in names] if names else list(remotes.values())
