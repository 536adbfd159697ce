"""One rule for what is a session file, Pi's: its first truthy JSON line (`null`, `false`,
`0` and `""` before it are skipped, as Pi's loadEntriesFromFile and buildSessionInfo skip
them) is a session header. `pitui list` lists such a file and `pitui tree` reads it; a file
whose first such line is anything else is "not a session" to both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00Z"}
MESSAGE = {
    "type": "message",
    "id": "m1",
    "parentId": None,
    "timestamp": "2025-01-01T00:00:01Z",
    "message": {"role": "user", "content": "hello", "timestamp": 1},
}
SKIPPED_FIRST = ["null", "false", "0", '""', "-0"]
NOT_SESSIONS_FIRST = ["1", "{}", "[]", '"x"', "true"]


def _write(folder: Path, first: str, index: int) -> Path:
    path = folder / f"s{index}.jsonl"
    header = {**HEADER, "id": f"s{index}", "cwd": "/w"}
    path.write_text("\n".join([first, json.dumps(header), json.dumps(MESSAGE)]) + "\n")
    return path


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    firsts = SKIPPED_FIRST + NOT_SESSIONS_FIRST
    return {first: _write(folder, first, i) for i, first in enumerate(firsts)}


def test_list_and_tree_agree_on_which_files_are_sessions(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["list", "--all", "--json", "--no-cache"]) == 0
    said = capsys.readouterr()
    listed = {item["path"] for item in json.loads(said.out)}
    assert listed == {str(files[first]) for first in SKIPPED_FIRST}
    assert f"skipped {len(NOT_SESSIONS_FIRST)} .jsonl files that are not sessions" in said.err
    for first, path in files.items():
        status = main(["tree", str(path)])
        out = capsys.readouterr()
        if first in SKIPPED_FIRST:
            assert status == 0 and "hello" in out.out, first
        else:
            assert status != 0 and "not a session" in out.err, first


@pytest.mark.parametrize("first", SKIPPED_FIRST + NOT_SESSIONS_FIRST)
def test_pi_opens_the_same_files(
    first: str, tmp_path: Path, pi_oracle: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, first, 0)
    try:
        ours: list[str] | None = [e.id for e in Session(path).tree.entries]
    except NotASession:
        ours = None
    try:
        pi = pi_oracle.request({"op": "open", "file": str(path)})
    except Exception as error:  # Pi: "not a valid pi session"
        assert "not a valid pi session" in str(error)
        pi = None
    assert ours == (None if pi is None else [node["id"] for node in pi["tree"]])


def test_list_names_the_files_it_skips_as_not_sessions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files Pi does not list were counted, never named: the user could not find them."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    for n in range(5):
        (folder / f"notes-{n}.jsonl").write_text("just notes\\n")
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["list", "--all", "--session-dir", str(folder)]) == 0
    said = capsys.readouterr().err
    assert f"skipped 5 .jsonl files that are not sessions: {folder / 'notes-0.jsonl'}, " in said
    assert said.rstrip().endswith("notes-2.jsonl and 2 more")
