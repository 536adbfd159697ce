"""`pitui context`: Pi's JSON for any leaf, a readable rendering, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pitui", *args], capture_output=True, text=True, timeout=60
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    files = generate_corpus(
        tmp_path_factory.mktemp("store") / "sessions", seed=3, include_malformed=False
    )
    return [f for f in files if Session(f).version == 3][:4]


def test_json_equals_pi_for_default_and_explicit_leaf(corpus: list[Path], pi_oracle: Any) -> None:
    for path in corpus:
        session = Session(path)
        for entry in (session.tree.entries[len(session.tree.entries) // 2], None):
            args = ["context", str(path), "--json"] + (["--leaf", entry.id] if entry else [])
            result = run_cli(*args)
            assert result.returncode == 0, result.stderr
            request = {
                "op": "context",
                "file": str(path),
                "leafIndex": None,
                "leafId": entry.id if entry else None,
            }
            pi = pi_oracle.request(request)
            assert json.loads(result.stdout) == {
                k: pi[k] for k in ("messages", "thinkingLevel", "model")
            }


def test_readable_rendering(corpus: list[Path]) -> None:
    result = run_cli("context", str(corpus[0]))
    assert result.returncode == 0
    assert "estimated tokens:" in result.stdout and "── user" in result.stdout


def test_unknown_leaf_and_non_session_are_one_line_errors(
    tmp_path: Path, corpus: list[Path]
) -> None:
    result = run_cli("context", str(corpus[0]), "--leaf", "nope")
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "nope" in result.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\x00\xff binary")
    for target in (bad, tmp_path / "missing.jsonl", tmp_path):
        result = run_cli("context", str(target))
        assert result.returncode == 1 and result.stderr.startswith("pitui: ")
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "evil.jsonl"
    header = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2025-01-01T00:00:00.000Z",
        "cwd": "/",
    }
    evil = "\x1b]52;c;aGVsbG8=\x07 [bold]x[/bold] \x9b31m"
    entry = {
        "type": "message",
        "id": "a",
        "parentId": None,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": evil},
    }
    path.write_text(json.dumps(header) + "\n" + json.dumps(entry) + "\n")
    for args in (["context", str(path)], ["context", str(path), "--json"]):
        out = run_cli(*args).stdout
        assert not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F for c in out)
    assert "[bold]x[/bold]" in run_cli("context", str(path)).stdout
    assert (
        json.loads(run_cli("context", str(path), "--json").stdout)["messages"][0]["content"] == evil
    )


def test_an_unknown_leaf_names_the_file_inert(tmp_path: Path, corpus: list[Path]) -> None:
    """The file name is quoted made visible, as every command's "no entry" error quotes it."""
    path = tmp_path / "evil\x1b[31m.jsonl"
    path.write_bytes(corpus[0].read_bytes())
    result = run_cli("context", str(path), "--leaf", "no\x1bpe")
    assert result.returncode == 1 and result.stderr.startswith("pitui: no entry with id ")
    assert "\x1b" not in result.stderr and result.stderr.count("\n") == 1
