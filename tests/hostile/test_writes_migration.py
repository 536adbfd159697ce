"""A migration under a real concurrent writer: a process appends numbered lines, reopening the
file for each one (as Pi's appendFileSync does), while pitui migrates old-format files it
labels. Every line arrives exactly once; each file is v3 after. (The step-by-step proof is in
tests/core/changes/test_migrate_file.py; this is the same promise, timed by the machine.)"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pitui.core.changes import write_guard
from pitui.core.changes.writer import set_name
from pitui.demo.generate import generate_v1_session, write_session

TRIALS = 6
APPENDER = r"""
import json, os, sys, time
path, stop = sys.argv[1], sys.argv[2]
n = 0
while not os.path.exists(stop) or n < 40:
    line = json.dumps({"type": "custom", "customType": "stress", "id": f"s{n:07d}",
                       "parentId": None, "timestamp": "2025-01-01T00:00:00.000Z",
                       "data": {"n": n}}, separators=(",", ":")) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(fd, line.encode())
    os.close(fd)
    n += 1
    if n == 20:
        print("going", flush=True)
    time.sleep(0.0003)
print(n, flush=True)
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(write_guard, "_own_writes", {})


def test_no_line_is_lost_while_a_reopening_appender_runs(tmp_path: Path) -> None:
    rng = random.Random(5)
    for trial in range(TRIALS):
        header, entries = generate_v1_session(rng, turns=3 + trial)
        path = write_session(tmp_path / f"s{trial}.jsonl", header, entries)
        stop = tmp_path / f"stop{trial}"
        proc = subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(path), str(stop)], stdout=subprocess.PIPE
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline() == b"going\n"
            set_name(path, f"trial {trial}", force=True)
        finally:
            stop.touch()
        count = int(proc.stdout.readline())
        assert proc.wait(timeout=30) == 0
        lines = [json.loads(line) for line in path.read_bytes().splitlines()]
        assert lines[0]["type"] == "session" and lines[0]["version"] == 3
        numbers = [v["data"]["n"] for v in lines if v.get("customType") == "stress"]
        assert sorted(numbers) == list(range(count)), f"trial {trial}: a line lost or doubled"
        assert [v["name"] for v in lines if v["type"] == "session_info"] == [f"trial {trial}"]
        assert not [p for p in tmp_path.iterdir() if ".pitui-" in p.name]
