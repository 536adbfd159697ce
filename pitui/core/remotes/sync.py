"""Syncing a remote's session files into its mirror: rsync over ssh (argument lists only).

rsync's delta transfer moves only the new bytes of a file that grew (its old blocks match),
a rewritten file moves whole, and `--delete` drops from the mirror what the remote no longer
has. Only `*.jsonl` files are mirrored, made read-only (`--chmod=F444`).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from dataclasses import dataclass

from pitui.core.remotes.config import Remote
from pitui.core.remotes.mirror import mark_synced, mirror_dir
from pitui.core.remotes.ssh import rsync_path, ssh_command, target_of
from pitui.core.rows.safe_text import one_line

RSYNC_OPTIONS = [
    "--recursive",
    "--times",
    "--delete",
    "--delete-excluded",
    "--prune-empty-dirs",
    "--chmod=F444",
    "--secluded-args",  # the remote path reaches rsync there as is, never through its shell
    "--timeout=120",
    "--stats",
    "--no-human-readable",
    "--include=*/",
    "--include=*.jsonl",
    "--exclude=*",
]
_STAT = re.compile(
    r"^(Number of regular files transferred|Total bytes sent|Total bytes "
    r"received|Literal data): ([\d,]+)",
    re.MULTILINE,
)


@dataclass
class SyncResult:
    name: str
    files: int = 0  # files transferred
    bytes: int = 0  # bytes over the connection, both ways
    literal: int = 0  # file bytes sent as they are (not matched to the mirror's old blocks)
    seconds: float = 0.0
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "files": self.files,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
            "error": self.error,
        }


def rsync_argv(remote: Remote) -> list[str]:
    target = target_of(remote.host)
    ssh = shlex.join([*ssh_command(), *target.options()])
    source = f"{target.destination}:{rsync_path(remote.sessions_dir)}/"
    return ["rsync", *RSYNC_OPTIONS, "-e", ssh, "--", source, f"{mirror_dir(remote.name)}/"]


def sync_remote(remote: Remote) -> SyncResult:
    """Bring the mirror of `remote` up to date; a failure is said in `error` (one line), the
    last mirror left as it was."""
    result = SyncResult(remote.name)
    started = time.monotonic()
    mirror_dir(remote.name).mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            rsync_argv(remote),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=600,
        )
    except FileNotFoundError:
        result.error = "rsync is not installed here"
    except subprocess.TimeoutExpired:
        result.error = "rsync took more than 10 minutes"
    else:
        if done.returncode == 0:
            _read_stats(done.stdout, result)
        else:
            result.error = failure_line(done.stderr, done.returncode)
    mark_synced(remote.name, result.error)
    result.seconds = time.monotonic() - started
    return result


def _read_stats(text: str, result: SyncResult) -> None:
    numbers = {name: int(value.replace(",", "")) for name, value in _STAT.findall(text)}
    result.files = numbers.get("Number of regular files transferred", 0)
    result.bytes = numbers.get("Total bytes sent", 0) + numbers.get("Total bytes received", 0)
    result.literal = numbers.get("Literal data", 0)


def failure_line(stderr: str, status: int) -> str:
    """What ssh said last about a failure (its warning banners aside), else rsync's first
    line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    ssh_said = [line for line in lines if not line.startswith(("rsync", "@"))]
    chosen = ssh_said[-1] if ssh_said else (lines or [f"rsync exited with status {status}"])[0]
    return one_line(chosen.removeprefix("rsync: "))
