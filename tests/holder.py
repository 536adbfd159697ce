"""A process holding a file open until told to stop, as a long-running writer (or a viewer)
would: `holding(path)` starts it, waits until the file is open, and ends it afterwards. Its
executable is named `name` (a symlink to this Python), so `/proc/PID/comm` says that name."""

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


@contextlib.contextmanager
def holding(path: Path, mode: str = "ab", name: str = "pi") -> Iterator[subprocess.Popen[bytes]]:
    """A process (named `name`) holding `path` open in `mode`, until the block ends."""
    folder = Path(tempfile.gettempdir()) / f"pitui-holder-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    executable = folder / name
    if not executable.exists():
        executable.symlink_to(os.path.realpath(sys.executable))
    process = subprocess.Popen(
        [str(executable), "-c", HOLD, str(path), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == b"ready"
        yield process
    finally:
        if process.stdin is not None:
            process.stdin.close()  # it reads to the end of stdin, then exits
        process.wait(timeout=30)
