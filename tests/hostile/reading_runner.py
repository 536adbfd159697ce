"""Run pitui commands in one child process, as a user's terminal would receive them.

Each command's stdout and stderr are UTF-8 byte streams (as a real terminal's are), so text
that cannot be encoded fails the command as it would for a user; the child has a timeout,
so a command that blocks fails the test rather than hanging the suite.
"""

from __future__ import annotations

import json
import subprocess
import sys

TIMEOUT = 20  # seconds

_RUNNER = """
import contextlib, io, json, sys, traceback
from pitui.cli import main
results = []
for args in json.loads(sys.argv[1]):
    out, err = io.BytesIO(), io.BytesIO()
    out_text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    err_text = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    with contextlib.redirect_stdout(out_text), contextlib.redirect_stderr(err_text):
        try:
            code = main(args)
        except BaseException:
            code = -1
            err_text.write(traceback.format_exc())
    results.append([code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")])
print(json.dumps(results))
"""


def run_commands(runs: list[list[str]]) -> list[tuple[int, str, str]]:
    """(exit code, stdout, stderr) of `pitui ARGS` for each ARGS in `runs`."""
    args = [sys.executable, "-c", _RUNNER, json.dumps(runs)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return [tuple(item) for item in json.loads(result.stdout)]  # type: ignore[misc]
