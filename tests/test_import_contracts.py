"""The import contracts in pyproject.toml hold (`lint-imports`): the layers of
docs/ARCHITECTURE.md, no Textual outside the app, and who may import the heavy packages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pitui

ROOT = Path(pitui.__file__).parent.parent  # the checkout whose pitui is under test


def test_the_import_contracts_hold() -> None:
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
            "--no-logo",
            str(ROOT / "pyproject.toml"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(paths)),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
