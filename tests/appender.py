"""A writer process, as another program appending to session files: it runs the operations
given to it as one JSON line on stdin, in order (`append`, `write`, `replace`, `truncate`,
`delete`, `mkdir`, `sleep`, `signal` a line to stdout, `wait` for a line on stdin, `stream`
numbered entries at a rate). Each operation opens and closes the file, as Pi does."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

WRITER = r"""
import json, os, sys, time

def stream(path, first, count, rate, sid):
    start = time.monotonic()
    for i in range(first, first + count):
        parent = f"{i - 1:08x}" if i > 0 else None
        line = {"type": "message", "id": f"{i:08x}", "parentId": parent,
                "timestamp": "2026-01-01T00:00:00.000Z", "seq": i, "sid": sid,
                "stamp": time.time(), "message": {"role": "user", "content": f"line {i}"}}
        with open(path, "ab") as f:
            f.write((json.dumps(line, separators=(",", ":")) + "\n").encode())
        delay = start + (i - first + 1) / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)

for op, *args in json.loads(sys.stdin.readline()):
    if op == "append":
        with open(args[0], "ab") as f:
            f.write(args[1].encode())
    elif op == "write":
        os.makedirs(os.path.dirname(args[0]), exist_ok=True)
        with open(args[0], "wb") as f:
            f.write(args[1].encode())
    elif op == "replace":
        tmp = args[0] + ".tmp"
        with open(tmp, "wb") as f:
            f.write(args[1].encode())
        os.replace(tmp, args[0])
    elif op == "truncate":
        os.truncate(args[0], args[1])
    elif op == "delete":
        os.remove(args[0])
    elif op == "mkdir":
        os.makedirs(args[0], exist_ok=True)
    elif op == "sleep":
        time.sleep(args[0])
    elif op == "signal":
        print(args[0], flush=True)
    elif op == "wait":
        sys.stdin.readline()
    elif op == "stream":
        stream(*args)
"""


def run_writer(*ops: list[Any]) -> None:
    script = json.dumps(ops) + "\n"
    subprocess.run([sys.executable, "-c", WRITER], input=script, text=True, check=True, timeout=120)


def start_writer(*ops: list[Any]) -> subprocess.Popen[str]:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdin is not None
    writer.stdin.write(json.dumps(ops) + "\n")
    writer.stdin.flush()
    return writer
