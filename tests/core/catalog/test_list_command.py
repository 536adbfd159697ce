"""`pitui list`: scope, JSON keys, table safety, invalid regex."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from pitui.cli import main
from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.catalog.summary import PI_KEYS


def test_json_all(agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and list(data[0])[: len(PI_KEYS)] == list(PI_KEYS)
    times = [d["modified"] for d in data]
    assert times == sorted(times, reverse=True)
    assert all(d["created"] is None or d["created"].endswith("Z") for d in data)


def test_current_folder_scope(agent: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cwd = agent.parent / "proj"
    cwd.mkdir()
    folder = project_dir(agent / "sessions", str(cwd))
    folder.mkdir()
    header = {"type": "session", "id": "mine", "timestamp": "2026-05-01T00:00:00Z", "cwd": str(cwd)}
    evil = {"type": "session_info", "id": "a", "parentId": None, "timestamp": "2026-05-01T00:00:00Z",
            "name": "x\x1b[31mred\x07"}  # fmt: skip
    (folder / "a.jsonl").write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(evil) + b"\n")
    monkeypatch.chdir(cwd)
    assert main(["list", "--json", "--no-cache"]) == 0
    assert [d["id"] for d in json.loads(capsys.readouterr().out)] == ["mine"]
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "red" in out


def test_invalid_regex_exit_two(agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all", "--json", "re:("]) == 2  # as grep: the search was not made
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [] and "regular expression" in captured.err


def test_session_dir_flag(agent: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    flat = tmp_path / "flat"
    flat.mkdir()
    for path in list((agent / "sessions").rglob("*.jsonl"))[:3]:
        (flat / path.name).write_bytes(path.read_bytes())
    assert main(["list", "--all", "--json", "--session-dir", str(flat)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and all(Path(d["path"]).parent == flat for d in data)


def _indexes_left(cache: Path) -> tuple[bool, bool]:
    """(some tool output not indexed, some conversation text not in the trigram index)."""
    from pitui.core.catalog.index.index import Index

    index = Index(cache)
    try:
        return index.tool_tasks_left(), index.texts_left()
    finally:
        index.close()


def test_first_search_builds_only_the_index_it_needs(agent: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A listing never waits for the tool-output and trigram indexes; nor does a first
    search (issue 27): it answers from the text the scan read, and reads only the tool output
    of the sessions nothing else matched, so a word only tool output holds is still found."""
    folder = agent / "sessions" / "--tools--"
    folder.mkdir()
    header = {"type": "session", "version": 3, "id": "eps", "timestamp": "2026-05-01T00:00:00Z",
              "cwd": "/w/e"}  # fmt: skip
    tool = {"role": "toolResult", "toolCallId": "t", "toolName": "bash",
            "content": [{"type": "text", "text": "segfault in zlibwrapper"}]}  # fmt: skip
    entry = {"type": "message", "id": "a1", "parentId": None, "timestamp": "2026-05-01T00:00:00Z",
             "message": tool}  # fmt: skip
    (folder / "eps.jsonl").write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(entry) + b"\n")
    assert main(["list", "--all", "--json", "/"]) == 0  # in every session's text or cwd
    found = {d["id"] for d in json.loads(capsys.readouterr().out)}
    assert _indexes_left(tmp_path / "cache") == (True, True)
    assert main(["list", "--all", "--json"]) == 0
    assert found == {d["id"] for d in json.loads(capsys.readouterr().out)}
    assert main(["list", "--all", "--json", "zlibwrap"]) == 0
    assert [d["id"] for d in json.loads(capsys.readouterr().out)] == ["eps"]
    assert _indexes_left(tmp_path / "cache") == (False, True)


def test_list_imports_no_worker_machinery() -> None:
    """A warm listing starts no worker processes, so it imports none of their machinery, nor
    the session parser (issue 14: the import cost a warm listing most of its time)."""
    import subprocess
    import sys

    code = "import sys, pitui.commands.list; print(' '.join(sorted(sys.modules)))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split()  # fmt: skip
    for module in ("multiprocessing", "concurrent.futures", "pitui.core.catalog.scan.scanner",
                   "pitui.core.catalog.session_info.builder"):  # fmt: skip
        assert module not in found
