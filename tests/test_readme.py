"""The README's Quick start stays true: CI runs exactly its test command."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_is_two_commands() -> None:
    demo, tests = quick_start_commands()
    assert "pitui --demo" in demo and "pip install" in demo
    assert "[test]" in tests and "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert quick_start_commands()[1] in ci
