"""Where Pi keeps sessions, and which `.jsonl` files a listing reads (Pi's `list` / `listAll`);
the stores pitui lists beyond them, each laid out as a sessions root (`--<cwd>--/*.jsonl`):
its archive (`archive_root`) and remotes' mirrors (`Mirror`)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from pitui.core.errors import PituiError
from pitui.core.regular_file import NotRegularFile, read_small
from pitui.core.user_dirs import config_dir

ENV_AGENT_DIR = "PI_CODING_AGENT_DIR"
ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR"
ENV_ARCHIVE_DIR = "PITUI_ARCHIVE_DIR"
_SEPARATORS = re.compile(r"[/\\:]")


def expand_tilde(path: str) -> str:
    """Pi's `normalizePath`: `~` and `~/...` expand to the home folder, nothing else does."""
    if path == "~":
        return str(Path.home())
    if path.startswith("~/"):
        return str(Path.home() / path[2:])
    return path


def agent_dir(env: Mapping[str, str] | None = None) -> Path:
    """`$PI_CODING_AGENT_DIR` (tilde-expanded) or `~/.pi/agent`."""
    env = os.environ if env is None else env
    value = env.get(ENV_AGENT_DIR)
    return Path(expand_tilde(value)) if value else Path.home() / ".pi" / "agent"


def sessions_root(env: Mapping[str, str] | None = None) -> Path:
    return agent_dir(env) / "sessions"


def archive_root(env: Mapping[str, str] | None = None) -> Path:
    """Where `pitui archive` moves sessions: `$PITUI_ARCHIVE_DIR`, else `archive_dir` in
    pitui's settings (`settings.json` in its config folder), else `<agentDir>/sessions-archive`;
    the same `--<cwd>--/` folders as the sessions root. A relative value is taken from the
    current folder."""
    env = os.environ if env is None else env
    chosen = env.get(ENV_ARCHIVE_DIR) or _pitui_setting("archive_dir")
    if chosen and "\0" not in chosen:
        return Path(os.path.abspath(expand_tilde(chosen)))
    return agent_dir(env) / "sessions-archive"


@dataclass(frozen=True)
class Mirror:
    """A remote's sessions mirrored here: `folder` holds what `remote_dir` holds there."""

    name: str  # the store name of its sessions
    folder: Path
    remote_dir: str

    def remote_path(self, path: str) -> str:
        """The remote's path of a file in `folder`."""
        relative = Path(path).relative_to(self.folder).as_posix()
        return self.remote_dir.rstrip("/") + "/" + relative


def overlaps(first: Path, second: Path) -> bool:
    """Whether one folder is the other or inside it (an archive inside a session folder would
    be listed by Pi as a project)."""
    first, second = first.absolute(), second.absolute()
    return first.is_relative_to(second) or second.is_relative_to(first)


def _pitui_setting(key: str) -> str | None:
    try:
        settings = orjson.loads(_read_regular(config_dir() / "settings.json"))
    except (OSError, orjson.JSONDecodeError):
        return None
    value = settings.get(key) if isinstance(settings, dict) else None
    return value if isinstance(value, str) and value else None


def settings_session_dir(agent: Path) -> str | None:
    """`sessionDir` from `<agentDir>/settings.json` (None if absent or unreadable).

    Raises `PituiError` for a path no system call takes (one with a null byte)."""
    try:
        settings = orjson.loads(_read_regular(agent / "settings.json"))
    except (OSError, orjson.JSONDecodeError):
        return None
    value = settings.get("sessionDir") if isinstance(settings, dict) else None
    if isinstance(value, str) and "\0" in value:  # every os call would raise ValueError
        raise PituiError(f"{agent / 'settings.json'}: sessionDir contains a null byte")
    return expand_tilde(value) if isinstance(value, str) and value else None


def _read_regular(path: Path, limit: int = 16 * 1024 * 1024) -> bytes:
    """A small regular file's bytes (a FIFO or device in its place is an error, not a hang)."""
    try:
        return read_small(path, limit)
    except NotRegularFile:
        raise OSError(f"{path}: not a regular file of at most {limit} bytes") from None


def custom_session_dir(
    cli_dir: str | None, cwd: str | None = None, env: Mapping[str, str] | None = None
) -> Path | None:
    """Pi's precedence: `--session-dir` > `PI_CODING_AGENT_SESSION_DIR` > settings > None.

    A relative directory is taken relative to `cwd` (Pi resolves it against the process cwd).
    A `--session-dir` that is not a folder is an error (a typo would list nothing); the
    others may name a folder Pi has not made yet.
    """
    env = os.environ if env is None else env
    chosen = (
        (expand_tilde(cli_dir) if cli_dir else None)
        or (expand_tilde(env[ENV_SESSION_DIR]) if env.get(ENV_SESSION_DIR) else None)
        or settings_session_dir(agent_dir(env))
    )
    if chosen is None:
        return None
    folder = Path(os.path.abspath(os.path.join(cwd or os.getcwd(), chosen)))
    if cli_dir:
        _must_be_folder(folder)
    return folder


def _must_be_folder(folder: Path) -> None:
    try:
        is_folder = folder.is_dir()
    except OSError as error:
        raise PituiError(f"--session-dir {folder}: {error.strerror or error}") from None
    if not is_folder:
        what = "not a folder" if os.path.lexists(folder) else "no such folder"
        raise PituiError(f"--session-dir {folder}: {what}")


def project_folder_name(cwd: str) -> str:
    """`--` + resolved cwd without its leading separator, `/`, `\\`, `:` as `-`, + `--`."""
    resolved = os.path.abspath(cwd)
    stripped = resolved[1:] if resolved[:1] in ("/", "\\") else resolved
    return f"--{_SEPARATORS.sub('-', stripped)}--"


def project_dir(root: Path, cwd: str) -> Path:
    return root / project_folder_name(cwd)


@dataclass
class Listing:
    """The `.jsonl` files a listing reads (absolute paths), and the directories it could not
    read."""

    files: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


def jsonl_files(folder: str, listing: Listing) -> None:
    """Append `folder`'s `*.jsonl` files (Pi's `listSessionsFromDir`); a missing folder is empty.
    Paths are joined as strings: at 10,000 files, pathlib costs a fifth of a warm listing."""
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    except OSError as error:
        listing.unreadable.append(f"{folder}: {error.strerror or error}")
        return
    prefix = os.path.join(folder, "")
    listing.files.extend(prefix + name for name in names if name.endswith(".jsonl"))


def list_one(folder: Path) -> Listing:
    listing = Listing()
    jsonl_files(str(folder), listing)
    return listing


def list_all(root: Path) -> Listing:
    """Every project folder (directories and symlinks) under the sessions root (`listAll()`)."""
    listing = Listing()
    for folder in list_folders(root, listing):
        jsonl_files(folder, listing)
    return listing


def list_folders(root: Path | str, listing: Listing | None = None) -> list[str]:
    """The project folders `list_all` reads, in its order (a root that cannot be read is
    noted in `listing`)."""
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return []
    except OSError as error:
        if listing is not None:
            listing.unreadable.append(f"{root}: {error.strerror or error}")
        return []
    return [e.path for e in sorted(entries, key=lambda e: e.name) if _is_dir_or_link(e)]


def _is_dir_or_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False) or entry.is_symlink()
    except OSError:
        return False


def same_cwd(header_cwd: str, cwd: str) -> bool:
    """Pi's `sessionCwdMatches`: a non-empty header cwd resolving to the same path."""
    return bool(header_cwd) and os.path.abspath(header_cwd) == os.path.abspath(cwd)
