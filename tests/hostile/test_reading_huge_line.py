"""A huge first line without a newline: one clear line saying so, and reading holds one
copy of it at most (measured as the peak memory of a child process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reading_runner import TIMEOUT

SIZE = 48 * 1024 * 1024

CHILD = """
import contextlib, io, json, resource, sys
from pitui.cli import main
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
err = io.StringIO()
with contextlib.redirect_stderr(err):
    code = main(sys.argv[1:])
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
print(json.dumps([code, err.getvalue(), grown]))
"""


def test_huge_first_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    path.write_bytes(b'{"type":"session","id":"' + b"x" * SIZE)
    for command in (["context", str(path)], ["tree", str(path), "--json"]):
        args = [sys.executable, "-c", CHILD, *command]
        result = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
        code, err, grown = json.loads(result.stdout)
        assert code == 1
        assert err == (
            "pitui: the first line is incomplete or too long (48.0 MB without a newline): "
            "no session header found\n"
        )
        assert grown < 1.3 * SIZE, f"peak grew by {grown / SIZE:.1f}x the line"
