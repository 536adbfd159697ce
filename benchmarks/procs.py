"""Whole processes, timed as a user meets them: wall time and peak RSS of one command.

`run(argv, env)` starts the command and reaps it with `os.wait4`, whose rusage gives the
peak RSS (`ru_maxrss`: the largest single process, the command itself or a worker process it
started and reaped; workers are not added up). `measure(argv, env)` also returns the CPU time
(user + system of the command and the workers it reaped), the steadier figure on a loaded
machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]


class Figure(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds, with the worker processes it reaped
    rss_mb: float  # peak RSS


def run(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, bytes]:
    """(seconds, peak RSS in MB, stdout) of one run of `argv`; exits if it fails."""
    figure, out = measure(argv, env)
    return figure.wall, figure.rss_mb, out


def measure(
    argv: list[str], env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,)
) -> tuple[Figure, bytes]:
    """Wall time, CPU time and peak RSS of one run of `argv`, and its stdout; exits if its
    status is not one of `ok` (grep's 1, nothing found, is an answer)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        if proc.returncode not in ok:
            raise SystemExit(f"{argv[:4]} failed: {err.read().decode(errors='replace')[-500:]}")
        cpu = usage.ru_utime + usage.ru_stime
        return Figure(seconds, cpu, usage.ru_maxrss / 1024), out.read()


def pitui_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "pitui", *args]


def pitui_env(agent: Path, cache: Path) -> dict[str, str]:
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent), "PITUI_CACHE_DIR": str(cache),
           "PYTHONPATH": str(REPO)}  # fmt: skip
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once, not every run
    return env


def node() -> str:
    sys.path.insert(0, str(REPO / "tests"))
    from oracle import oracle_available

    found = oracle_available()
    if found is None:
        raise SystemExit("Node/Pi oracle unavailable (scripts/install-oracle.sh)")
    return found
