"""`pitui grep` over all sessions marks a remote's mirrored ones as `pitui list` marks them:
`(NAME) ` in the text, `store` and `remotePath` in the JSON (`store` "local" for this
machine's, as `pitui list --json` gives it). The mirror is written in place, as a sync leaves
it: no ssh is needed to read it."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from pitui.cli import main
from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.remotes.config import Remote, save_remotes
from pitui.core.remotes.mirror import mark_synced, mirror_dir

THERE = "/home/someone/.pi/agent"  # the remote's agent folder
WORD = "zebrafinch"


def _session(folder: Path, cwd: str, session_id: str, text: str) -> Path:
    """A session of one user message, in Pi's folder for `cwd` under `folder`."""
    header = {"type": "session", "version": 3, "id": session_id,
              "timestamp": "2026-05-01T00:00:00Z", "cwd": cwd}  # fmt: skip
    said = {"type": "message", "id": f"{session_id}-m1", "parentId": None,
            "timestamp": "2026-05-01T00:00:01Z", "message": {"role": "user", "content": text}}  # fmt: skip
    where = project_dir(folder, cwd)
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"2026-05-01T00-00-00-000Z_{session_id}.jsonl"
    path.write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(said) + b"\n")
    return path


@pytest.fixture
def two_machines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A session here and one in the remote `box`'s mirror, both saying WORD."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    for name in ("PI_CODING_AGENT_SESSION_DIR", "PITUI_ARCHIVE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    save_remotes({"box": Remote("box", "box.example", agent_dir=THERE)})
    here = _session(agent / "sessions", str(tmp_path / "proj"), "here", f"{WORD} on this machine")
    there = _session(mirror_dir("box"), "/srv/proj", "there", f"{WORD} over there")
    mark_synced("box")
    return {"here": here, "there": there}


def _remote_path(mirrored: Path) -> str:
    return f"{THERE}/sessions/{mirrored.relative_to(mirror_dir('box'))}"


def test_grep_all_marks_a_remotes_lines_as_list_does(
    two_machines: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "--all"]) == 0
    assert sum("(box) " in row for row in capsys.readouterr().out.splitlines()) == 1
    assert main(["grep", WORD, "--all"]) == 0
    lines = {line.split(":", 1)[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines.keys() == {str(two_machines["here"]), str(two_machines["there"])}
    assert lines[str(two_machines["there"])].endswith(f"  (box) {WORD} over there")
    assert lines[str(two_machines["here"])].endswith(f"  {WORD} on this machine")
    assert "(box)" not in lines[str(two_machines["here"])]


def test_grep_all_json_has_the_store_and_remote_path_as_list_json(
    two_machines: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "--all", "--json"]) == 0
    listed = {s["id"]: s for s in json.loads(capsys.readouterr().out)}
    assert main(["grep", WORD, "--all", "--json"]) == 0
    hits = {hit["sessionId"]: hit for hit in json.loads(capsys.readouterr().out)}
    assert hits.keys() == {"here", "there"}
    there, here = hits["there"], hits["here"]
    assert (there["store"], there["remotePath"]) == ("box", _remote_path(two_machines["there"]))
    assert (here["store"], "remotePath" in here) == ("local", False)
    for session_id, hit in hits.items():  # the keys and values `pitui list --json` gives
        session = listed[session_id]
        assert hit["path"] == session["path"]
        assert (hit["store"], hit.get("remotePath")) == (
            session["store"],
            session.get("remotePath"),
        )


def test_grep_remote_marks_every_line_of_that_remote(
    two_machines: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grep", WORD, "--remote", "box"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{two_machines['there']}:2  there-m1  user ")
    assert line.endswith(f"  (box) {WORD} over there")


async def test_mcp_search_entries_marks_a_remotes_hits_as_search_sessions_does(
    two_machines: dict[str, Path],
) -> None:
    """MCP's `scope: "all"` (README): a remote's hits carry `store` and `remotePath`; this
    machine's carry no `store`, as `search_sessions` leaves out "local"."""
    from mcp import Client

    from pitui.commands.mcp import build_server

    async with Client(build_server()) as client:
        result = await client.call_tool("search_entries", {"query": WORD, "scope": "all"})
    hits = {hit["sessionId"]: hit for hit in json.loads(result.content[0].text)["entries"]}
    assert hits["there"]["store"] == "box"
    assert hits["there"]["remotePath"] == _remote_path(two_machines["there"])
    assert "store" not in hits["here"] and "remotePath" not in hits["here"]
