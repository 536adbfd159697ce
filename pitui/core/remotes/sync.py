"""Syncing a remote's session files into its mirror: rsync over ssh (argument lists only).

rsync's delta transfer moves only the new bytes of a file that grew (its old blocks match),
a rewritten file moves whole, and `--delete` drops from the mirror what the remote no longer
has. Only `*.jsonl` files are mirrored, made read-only (`--chmod=F444`).
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from pitui.core.remotes.config import Remote
from pitui.core.remotes.mirror import mark_synced, mirror_dir
from pitui.core.remotes.ssh import rsync_path, ssh_command, target_of
from pitui.core.rows.safe_text import one_line
from pitui.core.size_text import human_size

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
VANISHED = 24  # rsync: "some files vanished before they could be transferred"
MIRROR_WARNING = 5 * 1024**3  # bytes of a mirror past which each sync warns
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
    note: str | None = None  # a sync that worked, with something to say (files vanished)
    mirror_bytes: int = 0  # the mirror's size after the sync

    @property
    def warning(self) -> str | None:
        """Said when the mirror has grown past `MIRROR_WARNING` (it can fill this disk)."""
        if self.mirror_bytes <= MIRROR_WARNING:
            return None
        return (
            f"its mirror holds {human_size(self.mirror_bytes)}, over "
            f"{human_size(MIRROR_WARNING)} (pitui remote remove {self.name} deletes it)"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "files": self.files,
            "bytes": self.bytes,
            "seconds": round(self.seconds, 3),
            "error": self.error,
            "note": self.note,
            "mirrorBytes": self.mirror_bytes,
            "warning": self.warning,
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
    except SyncStopped:
        result.error = "stopped (pitui quit)"
    else:
        if status in (0, VANISHED):
            _read_stats(out, result)
        else:
            result.error = failure_line(err, status, remote.host)
        if status == VANISHED:
            result.note = (
                "some files vanished on the remote while they were copied (deleted or "
                "moved there meanwhile); the rest is mirrored"
            )
    mark_synced(remote.name, result.error)
    result.mirror_bytes = folder_bytes(mirror_dir(remote.name))
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


class SyncStopped(Exception):
    """`stop_syncs()` ended the rsync under way."""


class _Running:
    """The watched rsyncs under way, each in a process group of its own with its ssh, so that
    the app ending ends them: re-parented, they went on writing the mirror, unseen."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self._stopped: set[int] = set()

    def add(self, process: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._groups.add(process.pid)

    def remove(self, process: subprocess.Popen[bytes]) -> bool:
        """No longer under way; whether `stop_all` stopped it."""
        with self._lock:
            self._groups.discard(process.pid)
            stopped = process.pid in self._stopped
            self._stopped.discard(process.pid)
            return stopped

    def stop_all(self) -> None:
        with self._lock:
            for group in self._groups:
                self._stopped.add(group)
                with contextlib.suppress(OSError):
                    os.killpg(group, signal.SIGTERM)


_RUNNING = _Running()


def stop_syncs() -> None:
    """End the syncs under way now (rsync and its ssh), without waiting for them: the app is
    quitting. Their `sync_remote` says "stopped"; the mirror keeps what had arrived."""
    _RUNNING.stop_all()


def _rsync_watched(argv: list[str], progress: Progress) -> tuple[int, str, str]:
    """`_rsync`, its progress lines read as they come (stderr goes to a file: never a full
    pipe while stdout is read)."""
    deadline = time.monotonic() + TIMEOUT
    out = bytearray()
    with tempfile.TemporaryFile() as errors:
        with subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            process_group=0,
        ) as process:
            _RUNNING.add(process)
            try:
                status = _watch(process, argv, deadline, out, progress)
            finally:
                stopped = _RUNNING.remove(process)
        if stopped:
            raise SyncStopped
        if status in (0, VANISHED):
            progress(100, 100)  # done (its last progress line may sit before the statistics)
        errors.seek(0)
        err = errors.read().decode(errors="replace")
    return status, out.decode(errors="replace"), err


def _watch(
    process: subprocess.Popen[bytes],
    argv: list[str],
    deadline: float,
    out: bytearray,
    progress: Progress,
) -> int:
    """Read rsync's output until it ends, saying its progress; its exit status."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    percent = 0
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
    return process.wait()


def folder_bytes(folder: os.PathLike[str] | str) -> int:
    """The sizes of the files under `folder`, added up (0 when it is missing)."""
    total = 0
    for top, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(top, name)).st_size
            except OSError:
                continue
    return total


def _last_percent(out: bytearray, before: int) -> int:
    """The percentage of rsync's last progress line (its lines end in carriage returns)."""
    found = _PERCENT.findall(out[-512:])
    return min(int(found[-1]), 100) if found else before


def _read_stats(text: str, result: SyncResult) -> None:
    numbers = {name: int(value.replace(",", "")) for name, value in _STAT.findall(text)}
    result.files = numbers.get("Number of regular files transferred", 0)
    result.bytes = numbers.get("Total bytes sent", 0) + numbers.get("Total bytes received", 0)
    result.literal = numbers.get("Literal data", 0)


HOST_KEY_FAILED = "Host key verification failed."


def failure_line(stderr: str, status: int, host: str | None = None) -> str:
    """What ssh said last about a failure (its warning banners aside), else rsync's first
    line; a host key ssh does not know (or that changed) said with what to do."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    ssh_said = [line for line in lines if not line.startswith(("rsync", "@"))]
    chosen = ssh_said[-1] if ssh_said else (lines or [f"rsync exited with status {status}"])[0]
    if chosen == HOST_KEY_FAILED and host is not None:
        return host_key_advice(
            host, changed=any("HOST IDENTIFICATION HAS CHANGED" in x for x in lines)
        )
    return one_line(chosen.removeprefix("rsync: "))


def host_key_advice(host: str, *, changed: bool) -> str:
    """Why ssh refused (it never prompts here), and how to let it connect."""
    target = target_of(host)
    destination = one_line(target.destination)
    if changed:
        return (
            f"Host key verification failed: {destination}'s host key has CHANGED since ssh "
            "last met it (a reinstalled machine, or someone in between): check it, then fix "
            f"the line in ~/.ssh/known_hosts (ssh-keygen -R {destination})"
        )
    connect = one_line(shlex.join(["ssh", *target.options(), target.destination]))
    return (
        f"Host key verification failed: ssh does not know {destination}'s host key yet and "
        f"pitui never prompts: connect once with `{connect}` and accept it"
    )
