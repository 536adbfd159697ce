"""Syncing a remote's session files into its mirror: rsync over ssh (argument lists only).

rsync's delta transfer moves only the new bytes of a file that grew (its old blocks match),
a rewritten file moves whole, and `--delete` drops from the mirror what the remote no longer
has. Only `*.jsonl` files are mirrored, made read-only (`--chmod=F444`).
"""

from __future__ import annotations

import os
import re
import select
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable
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
PROGRESS_OPTION = "--info=progress2"  # one line for the whole transfer, "... 45% ..."
TIMEOUT = 600  # seconds
TICK = 0.25  # seconds between progress reports while rsync says nothing
_PERCENT = re.compile(rb"\s(\d{1,3})%\s")
Progress = Callable[[int, int], None]
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


def rsync_argv(remote: Remote, *, progress: bool = False) -> list[str]:
    target = target_of(remote.host)
    ssh = shlex.join([*ssh_command(), *target.options()])
    source = f"{target.destination}:{rsync_path(remote.sessions_dir)}/"
    options = [*RSYNC_OPTIONS, PROGRESS_OPTION] if progress else RSYNC_OPTIONS
    return ["rsync", *options, "-e", ssh, "--", source, f"{mirror_dir(remote.name)}/"]


def sync_remote(remote: Remote, progress: Progress | None = None) -> SyncResult:
    """Bring the mirror of `remote` up to date; a failure is said in `error` (one line), the
    last mirror left as it was. `progress(percent, 100)`: rsync's progress, said every
    quarter of a second at least (0 while it connects and compares)."""
    result = SyncResult(remote.name)
    started = time.monotonic()
    mirror_dir(remote.name).mkdir(parents=True, exist_ok=True)
    argv = rsync_argv(remote, progress=progress is not None)
    try:
        status, out, err = _rsync(argv) if progress is None else _rsync_watched(argv, progress)
    except FileNotFoundError:
        result.error = "rsync is not installed here"
    except subprocess.TimeoutExpired:
        result.error = "rsync took more than 10 minutes"
    else:
        if status == 0:
            _read_stats(out, result)
        else:
            result.error = failure_line(err, status)
    mark_synced(remote.name, result.error)
    result.seconds = time.monotonic() - started
    return result


def _rsync(argv: list[str]) -> tuple[int, str, str]:
    """rsync's exit status, stdout and stderr."""
    done = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=TIMEOUT,
    )
    return done.returncode, done.stdout, done.stderr


def _rsync_watched(argv: list[str], progress: Progress) -> tuple[int, str, str]:
    """`_rsync`, its progress lines read as they come (stderr goes to a file: never a full
    pipe while stdout is read)."""
    deadline = time.monotonic() + TIMEOUT
    out = bytearray()
    percent = 0
    with tempfile.TemporaryFile() as errors:
        with subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors
        ) as process:
            assert process.stdout is not None
            fd = process.stdout.fileno()
            while True:
                if time.monotonic() > deadline:
                    process.kill()
                    raise subprocess.TimeoutExpired(argv, TIMEOUT)
                if select.select([fd], [], [], TICK)[0]:
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    out += chunk
                    percent = _last_percent(out, percent)
                progress(percent, 100)
            status = process.wait()
        if status == 0:
            progress(100, 100)  # done (its last progress line may sit before the statistics)
        errors.seek(0)
        err = errors.read().decode(errors="replace")
    return status, out.decode(errors="replace"), err


def _last_percent(out: bytearray, before: int) -> int:
    """The percentage of rsync's last progress line (its lines end in carriage returns)."""
    found = _PERCENT.findall(out[-512:])
    return min(int(found[-1]), 100) if found else before


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
