"""A process holding a file open until told to stop, as a long-running writer (or a viewer)
would: `holding(path)` starts it, waits until the file is open, and ends it afterwards;
`idle_pi(folder)` one that runs in a folder and holds nothing. Its executable is named
`name` (a symlink to this Python), so `/proc/PID/comm` says that name."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

HOLD = (
    "import sys; f = open(sys.argv[1], sys.argv[2]); print('ready', flush=True); sys.stdin.read()"
)


IDLE = "import sys; print('ready', flush=True); sys.stdin.read()"


def _named(name: str) -> Path:
    folder = Path(tempfile.gettempdir()) / f"pitui-holder-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    executable = folder / name
    if not executable.exists():
        executable.symlink_to(os.path.realpath(sys.executable))
    return executable


@contextlib.contextmanager
def holding(path: Path, mode: str = "ab", name: str = "pi") -> Iterator[subprocess.Popen[bytes]]:
    """A process (named `name`) holding `path` open in `mode`, until the block ends."""
    process = subprocess.Popen(
        [str(_named(name)), "-c", HOLD, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    yield from _until_done(process)


@contextlib.contextmanager
def idle_pi(cwd: Path, name: str = "pi") -> Iterator[subprocess.Popen[bytes]]:
    """A process named `name` running in the folder `cwd` and holding no file open: an idle
    pi between two appends (Pi opens its session file only for the moment of each)."""
    process = subprocess.Popen(
        [str(_named(name)), "-c", IDLE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd
    )
    yield from _until_done(process)


def _until_done(process: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
        yield process
    finally:
        if process.stdin is not None:
            process.stdin.close()  # it reads to the end of stdin, then exits
        process.wait(timeout=30)
