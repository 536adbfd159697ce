"""A file name holding a line break is shown with it visible (`␊`), never as a space: two
files, `a\\nb.jsonl` and `a b.jsonl`, looked the same, and a printed path named the other one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pitui.core.changes.file_messages import shown

HEADER = (
    b'{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n'
)


def test_a_message_names_a_path_with_its_line_breaks_visible() -> None:
    assert shown("/s/a\nb\r.jsonl") == "/s/a␊b␍.jsonl"


def test_check_prints_such_a_path_with_the_break_visible(tmp_path: Path) -> None:
    folder = tmp_path / "agent" / "sessions" / "--x--"
    folder.mkdir(parents=True)
    (folder / "a\nb.jsonl").write_bytes(HEADER + b"not json\n")
    (folder / "a b.jsonl").write_bytes(HEADER)
    env = {"PI_CODING_AGENT_DIR": str(tmp_path / "agent"), "PITUI_CACHE_DIR": str(tmp_path / "c")}
    result = subprocess.run(
        [sys.executable, "-m", "pitui", "check", "--all"],
        capture_output=True, text=True, timeout=60, env={**env, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert f"{folder}/a␊b.jsonl" in result.stdout, result.stdout + result.stderr
    assert f"{folder}/a b.jsonl" not in result.stdout
