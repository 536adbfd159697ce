"""`pitui list`: a session whose header names a version above 3 is listed and marked; a file
in Pi's newer harness format is named as such, not counted among files that are not sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitui.cli import main


def _session(folder: Path, name: str, version: int, text: str) -> None:
    lines = [
        {"type": "session", "version": version, "id": name, "timestamp": "2025-01-01T00:00:00Z",
         "cwd": "/p"},
        {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01Z",
         "message": {"role": "user", "content": text, "timestamp": 1}},
    ]  # fmt: skip
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "sessions"
    folder.mkdir()
    _session(folder, "old", 3, "known format")
    _session(folder, "new", 4, "future format")
    (folder / "harness.jsonl").write_text('{"kind":"header","version":4,"id":"h"}\n{"kind":"x"}\n')
    (folder / "notes.jsonl").write_text("just notes\n")
    return folder


def test_newer_sessions_are_marked(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all", "--session-dir", str(store)]) == 0
    captured = capsys.readouterr()
    [new] = [line for line in captured.out.splitlines() if "future format" in line]
    [old] = [line for line in captured.out.splitlines() if "known format" in line]
    assert "  (newer format) future format  " in new
    assert "newer format" not in old
    assert captured.err.splitlines() == [
        f"pitui: {store / 'harness.jsonl'}: a newer Pi session format that pitui cannot read yet",
        f"pitui: skipped 1 .jsonl file that is not a session: {store / 'notes.jsonl'}",
    ]
    assert main(["list", "--all", "--session-dir", str(store), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["id"]: d["newerFormat"] for d in data} == {"old": False, "new": True}
