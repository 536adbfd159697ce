"""Every CLI command on every hostile file: finishes, exits cleanly, says what was wrong,
never lets a control character through, and leaves the file byte for byte unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus import NOT_SESSIONS, hostile_files, write_corpus
from reading_runner import run_commands

COMMANDS = [
    ["context"],
    ["context", "--json"],
    ["tree"],
    ["tree", "--json"],
    ["tree", "--filter", "all"],
]


def unsafe_characters(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_corpus(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("name", sorted(hostile_files()))
def test_cli_on_hostile_file(corpus: dict[str, Path], name: str) -> None:
    path = corpus[name]
    before = path.read_bytes()
    for command in COMMANDS:
        args = [sys.executable, "-m", "pitui", command[0], str(path), *command[1:]]
        result = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert "Traceback" not in result.stderr, result.stderr
        assert not unsafe_characters(result.stdout + result.stderr), (name, command)
        if name in NOT_SESSIONS:
            assert result.returncode == 1 and result.stderr.startswith("pitui: ")
            assert result.stderr.count("\n") == 1
        else:
            assert result.returncode == 0, (name, command, result.stderr)
    assert path.read_bytes() == before


EXPORTS = [
    ["export", "{file}", "-o", "{out}.md"],
    ["export", "{file}", "--format", "html", "-o", "{out}.html"],
    ["export", "{file}", "--format", "jsonl", "-o", "{out}.jsonl"],
    ["export", "{file}", "--redact", "--format", "jsonl", "-o", "{out}.redacted.jsonl"],
    ["export", "{file}", "--context", "--redact", "-o", "{out}.context.md"],
    ["du", "{file}", "--json"],
]


@pytest.mark.parametrize("name", sorted(hostile_files()))
def test_exports_and_sizes_of_a_hostile_file(
    corpus: dict[str, Path], name: str, tmp_path: Path
) -> None:
    """Each export and `du` of each hostile file, in one child: one clear line for what is
    not a session, else a file written; never a traceback; the session unchanged."""
    path = corpus[name]
    before = path.read_bytes()
    runs = [[arg.format(file=path, out=tmp_path / "out") for arg in run] for run in EXPORTS]
    for (code, out, err), run in zip(run_commands(runs), runs, strict=True):
        assert "Traceback" not in err, (run, err)
        assert not unsafe_characters(out + err), (name, run)
        if name in NOT_SESSIONS:
            assert code == 1 and err.startswith("pitui: ") and err.count("\n") == 1, err
        else:
            assert code == 0, (name, run, err)
    assert path.read_bytes() == before
