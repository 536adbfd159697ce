"""Sessions written by Pi 1.6.0 itself (`fixtures/pi_writes_sessions.mjs`: a real AgentSession
over pi-ai's faux provider)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from oracle import oracle_available, oracle_dir, oracle_unavailable_reason

SCRIPT = Path(__file__).with_name("fixtures") / "pi_writes_sessions.mjs"


def write_pi_sessions(root: Path) -> list[Path]:
    """Run Pi's own code to write sessions under `root / "sessions"`; their paths."""
    node = oracle_available()
    if node is None:
        pytest.skip(f"Node/Pi oracle cannot be installed: {oracle_unavailable_reason()}")
    done = subprocess.run(
        [node, str(SCRIPT), str(oracle_dir()), str(root)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [Path(line) for line in done.stdout.splitlines()]


EDITS_SCRIPT = Path(__file__).with_name("fixtures") / "pi_edits_files.mjs"


def write_pi_edits(root: Path) -> Path:
    """Run Pi's own agent loop and its write and edit tools (`fixtures/pi_edits_files.mjs`):
    `root / "project"` holds the file they changed, `root / "sessions"` the sessions."""
    node = oracle_available()
    if node is None:
        pytest.skip(f"Node/Pi oracle cannot be installed: {oracle_unavailable_reason()}")
    done = subprocess.run(
        [node, str(EDITS_SCRIPT), str(oracle_dir()), str(root)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return root
