"""The pi processes running now, and the folder each runs in (Linux `/proc`).

Pi holds no session file open: it appends each entry with an open/append/close of its own
(`appendFileSync`), so `/proc/PID/fd` shows an idle pi holding nothing. What `/proc` does
show is the process: Pi names itself (`process.title`, so `/proc/PID/comm` says `pi`, or
`pi-rpc` in RPC mode), and it writes the sessions of the folder it was started in
(`/proc/PID/cwd`; the header's `cwd` of every session it writes). Its arguments are not
there to read: setting the title overwrites them.

Processes pitui may not inspect are left out; where `/proc` cannot tell, the answer is None.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pitui.core.live.open_by import PROC, command_name, proc_available

PI_NAMES = frozenset({"pi", "pi-rpc"})  # Pi's process.title (cli.js, rpc-entry.js)


@dataclass(frozen=True)
class PiProcess:
    """A running pi: its pid, name, folder, and when it started (seconds since the epoch,
    None if unknown)."""

    pid: int
    command: str
    cwd: str
    started: float | None

    def describe(self) -> str:
        return f"{self.command} (pid {self.pid})"


def running_pis(exclude: int | None = None) -> list[PiProcess] | None:
    """Every pi process we may inspect (but `exclude`), by pid; None where `/proc` cannot
    tell."""
    if not proc_available():
        return None
    try:
        pids = sorted(int(name) for name in os.listdir(PROC) if name.isdigit())
    except OSError:
        return None
    boot = _boot_time()
    found = []
    for pid in pids:
        if pid == exclude:
            continue
        name = command_name(pid)
        if name not in PI_NAMES:
            continue
        try:
            cwd = os.readlink(f"{PROC}/{pid}/cwd")
        except OSError:
            continue
        found.append(PiProcess(pid, name, cwd, _start_time(pid, boot)))
    return found


def in_folder(pis: list[PiProcess], folders: list[str]) -> list[PiProcess]:
    """The pis running in one of `folders` (compared as resolved paths)."""
    wanted = {os.path.realpath(f) for f in folders if f} | {
        os.path.abspath(f) for f in folders if f
    }
    return [p for p in pis if p.cwd in wanted or os.path.realpath(p.cwd) in wanted]


def _boot_time() -> float | None:
    try:
        with open(f"{PROC}/stat", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("btime "):
                    return float(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def _start_time(pid: int, boot: float | None) -> float | None:
    """When `pid` started: field 22 of `/proc/PID/stat` (clock ticks after boot)."""
    if boot is None:
        return None
    try:
        with open(f"{PROC}/{pid}/stat", encoding="ascii", errors="replace") as fh:
            text = fh.read()
        ticks = int(text[text.rindex(")") + 2 :].split()[19])
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
