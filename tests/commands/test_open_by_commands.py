"""`pitui list --json`'s `openBy`, and write commands refusing a session another process holds
open for writing (a helper process holds it and waits)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from holder import holding

from pitui.cli import main
from pitui.core.changes import trash
from pitui.core.live.open_by import proc_available

OLD = 1_600_000_000
needs_proc = pytest.mark.skipif(not proc_available(), reason="needs Linux /proc")


def _listed(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["list", "--all", "--json"]) == 0
    return {item["path"]: item for item in json.loads(capsys.readouterr().out)}


@needs_proc
def test_list_json_says_who_holds_a_session_open(
    agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _listed(capsys)
    assert before and all(item["openBy"] == [] for item in before.values())
    path = sorted(before)[0]
    with holding(Path(path), "ab", name="pi") as process:
        during = _listed(capsys)  # the kept answer of before is not printed again
        assert during[path]["openBy"] == [{"pid": process.pid, "command": "pi"}]
        assert all(item["openBy"] == [] for p, item in during.items() if p != path)
        assert _listed(capsys) == during
    after = _listed(capsys)
    assert after == before


def test_list_without_json_says_nothing_of_holders(
    agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "--all"]) == 0
    assert "openBy" not in capsys.readouterr().out


@pytest.fixture
def session(agent: Path) -> Path:
    found = sorted((agent / "sessions").glob("*/*.jsonl"))
    path = next(p for p in found if b'"version":3' in p.read_bytes().split(b"\n", 1)[0])
    os.utime(path, (OLD, OLD))
    return path


def test_trash_refuses_a_session_just_written(
    session: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    taken: list[str] = []
    monkeypatch.setattr(trash, "send2trash", lambda p: (taken.append(p), os.rename(p, p + "~")))
    os.utime(session)  # now
    assert main(["trash", str(session)]) == 1
    err = capsys.readouterr().err
    assert "may be writing it" in err and "--force" in err
    assert taken == [] and session.exists()
    assert main(["trash", str(session), "--force"]) == 0
    assert taken == [str(session)]


@needs_proc
@pytest.mark.parametrize(
    "command",
    [
        ["label", "{path}", "{entry}", "x"],
        ["name", "{path}", "new name"],
        ["context-edit", "{path}", "{entry}", "--omit"],
        ["trash", "{path}"],
    ],
)
def test_writes_refuse_a_session_open_for_writing(
    session: Path,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(trash, "send2trash", lambda p: os.rename(p, p + "~"))
    lines = [json.loads(line) for line in session.read_bytes().splitlines() if line.strip()]
    entry = next(e["id"] for e in reversed(lines) if e.get("type") == "message")  # on the branch
    argv = [part.format(path=session, entry=entry) for part in command]
    before = session.read_bytes()
    with holding(session, "ab", name="pi") as process:
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert f"open for writing by pid {process.pid} (pi)" in err and "--force" in err
        assert session.read_bytes() == before
        assert main([*argv, "--force"]) == 0
    assert not session.exists() or session.read_bytes() != before


@needs_proc
@pytest.mark.parametrize(
    "command", [["archive", "{path}"], ["prune", "--all", "--larger-than", "0"]]
)
def test_bulk_moves_skip_a_session_open_for_writing(
    session: Path,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(trash, "send2trash", lambda p: os.rename(p, p + "~"))
    for other in session.parent.parent.glob("*/*.jsonl"):
        os.utime(other, (OLD, OLD))
    argv = [part.format(path=session) for part in command]
    with holding(session, "ab", name="pi") as process:
        assert main([*argv, "--yes", "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
    [skipped] = [s for s in result["skipped"] if s["path"] == str(session)]
    assert f"open for writing by pid {process.pid} (pi)" in skipped["reason"]
    assert session.exists() and str(session) not in result["moved"]
