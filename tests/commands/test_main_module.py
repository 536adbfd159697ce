"""`python -m pitui` with the catalog's worker processes: the main module is imported again
in each worker, so it must not run pitui there (an unguarded __main__ would)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pitui.demo.generate import generate_store


def test_python_m_pitui_lists_a_store_large_enough_for_worker_processes(tmp_path: Path) -> None:
    files = generate_store(tmp_path / "agent" / "sessions", 260, 4, seed=2)
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(tmp_path / "agent")}
    result = subprocess.run(
        [sys.executable, "-m", "pitui", "list", "--all", "--json", "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)) == len(files)
    assert "Traceback" not in result.stderr
