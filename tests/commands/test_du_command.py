"""`pitui du` on the command line: one session, the store, JSON, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "usage"))
from usage_store import build_store

from pitui.cli import main


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return build_store(tmp_path / "agent" / "sessions")


def test_one_session_json(store: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["du", str(store[0]), "--json", "--top", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bytes"] == store[0].stat().st_size == sum(data["kinds"].values())
    largest = data["largest"]
    assert len(largest) == 2 and set(largest[0]) == {"id", "kind", "line", "bytes", "text"}
    lines = store[0].read_text().splitlines()
    for entry in largest:  # the start of its text, to know it by (its id says nothing)
        raw = json.loads(lines[entry["line"] - 1])
        assert entry["text"] and entry["text"][:20] in " ".join(json.dumps(raw).split())


def test_one_session_text(store: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["du", str(store[0])]) == 0
    out = capsys.readouterr().out
    assert "KIND" in out and "LARGEST ENTRIES" in out


def test_store_json_and_text(store: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["du", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == len(store)
    assert data["bytes"] == sum(p.stat().st_size for p in store)
    assert sum(f["bytes"] for f in data["folders"]) == data["bytes"]
    assert main(["du", "--all", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(store)} sessions") and "PROJECT FOLDER" in out


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["du", str(tmp_path)]) == 1
    assert "not a regular file" in capsys.readouterr().err
    assert main(["du", str(tmp_path / "missing.jsonl")]) == 1
    assert capsys.readouterr().err.startswith("pitui: cannot read")
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    assert main(["du", str(other)]) == 1
    assert "is not a Pi session" in capsys.readouterr().err


def test_one_session_is_not_plural(
    store: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    store[0].rename(folder / store[0].name)
    assert main(["du", "--all", "--session-dir", str(folder)]) == 0  # started elsewhere
    assert capsys.readouterr().out.startswith("1 session, ")


def test_files_that_are_no_sessions_are_counted_apart(
    store: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Pi lists no session for a file without a session header; `du` said "N sessions" for
    every `.jsonl` file."""
    folder = store[0].parent
    (folder / "notes.jsonl").write_text('{"type":"message","id":"x"}\n')
    (folder / "empty.jsonl").write_bytes(b"")
    assert main(["du", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == len(store)
    assert data["bytes"] == sum(p.stat().st_size for p in store)
    assert [(o["path"], o["bytes"]) for o in data["notSessions"]] == [
        (str(folder / "notes.jsonl"), 28),
        (str(folder / "empty.jsonl"), 0),
    ]
    assert main(["du", "--all"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(store)} sessions")
    assert "NOT SESSIONS" in out and out.rstrip().endswith("empty.jsonl")
