"""The Pi oracle harness (scripts/oracle/pi_oracle.mjs) works and never touches its inputs."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from pitui.demo.generate import generate_corpus, generate_varied_session, write_session

pytestmark = pytest.mark.oracle

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pi-real-v1-large-session.jsonl"


def test_ping(pi_oracle: Any) -> None:
    assert pi_oracle.request({"op": "ping"})["pong"] is True


def test_unknown_op_raises(pi_oracle: Any) -> None:
    from oracle import OracleError

    with pytest.raises(OracleError):
        pi_oracle.request({"op": "nope"})
    assert pi_oracle.request({"op": "ping"})["pong"] is True  # still alive


@pytest.mark.skipif(not FIXTURE.exists(), reason="real v1 fixture missing")
def test_context_of_real_v1_session(tmp_path: Path, pi_oracle: Any) -> None:
    path = tmp_path / FIXTURE.name
    shutil.copyfile(FIXTURE, path)
    before = path.read_bytes()
    req = {"op": "context", "file": str(path), "leafIndex": None, "leafId": None}
    result = pi_oracle.request(req)
    assert result["messages"]
    assert result["tokens"] > 0
    assert result["model"]["provider"]
    assert len(result["leafIds"]) == len(before.splitlines()) - 1
    assert path.read_bytes() == before  # not migrated on disk
    first = pi_oracle.request({**req, "leafIndex": 0})
    assert len(first["messages"]) == 1


def test_context_does_not_repair_partial_line(tmp_path: Path, pi_oracle: Any) -> None:
    header, entries = generate_varied_session(random.Random(2))
    path = write_session(tmp_path / "s.jsonl", header, entries)
    data = path.read_bytes() + b'{"type":"message","id":"0000'
    path.write_bytes(data)
    result = pi_oracle.request({"op": "context", "file": str(path), "leafId": entries[5]["id"]})
    assert result["leafIds"] == [e["id"] for e in entries]
    assert result["thinkingLevel"] == "medium"
    assert path.read_bytes() == data


def test_list_all_over_corpus(tmp_path: Path, pi_oracle: Any) -> None:
    sessions = tmp_path / "agent" / "sessions"
    paths = generate_corpus(sessions)
    valid = {
        str(p) for p in paths if json.loads(p.read_text().splitlines()[0])["type"] == "session"
    }
    listed = pi_oracle.request({"op": "listAllDefault", "agentDir": str(tmp_path / "agent")})
    assert {s["path"] for s in listed} == valid
    assert all("allMessagesText" not in s for s in listed)
    assert any(s.get("name") for s in listed)
    assert any(s.get("parentSessionPath") for s in listed)
    modified = [s["modified"] for s in listed]
    assert modified == sorted(modified, reverse=True)

    # listAll(dir) reads ONE project folder, not a sessions root.
    assert pi_oracle.request({"op": "listAll", "sessionDir": str(sessions)}) == []
    folder = paths[0].parent
    one = pi_oracle.request({"op": "listAll", "sessionDir": str(folder), "withText": True})
    assert {s["path"] for s in one} == {p for p in valid if Path(p).parent == folder}
    assert all("allMessagesText" in s for s in one)
    cwd = json.loads(paths[0].read_text().splitlines()[0])["cwd"]
    by_cwd = pi_oracle.request({"op": "list", "cwd": cwd, "sessionDir": str(folder)})
    assert by_cwd and all(s["cwd"] == cwd for s in by_cwd)


def test_open_migrates_v1_on_disk(tmp_path: Path, pi_oracle: Any) -> None:
    paths = generate_corpus(tmp_path, include_malformed=False)
    v1 = next(p for p in paths if "version" not in json.loads(p.read_text().splitlines()[0]))
    result = pi_oracle.request({"op": "open", "file": str(v1)})
    assert result["entryCount"] == len(v1.read_text().splitlines()) - 1
    assert json.loads(v1.read_text().splitlines()[0])["version"] == 3
    assert result["tree"][0]["depth"] == 0 and result["leafId"]

    varied = next(p for p in paths if b'"type":"label"' in p.read_bytes())
    opened = pi_oracle.request({"op": "open", "file": str(varied)})
    assert opened["labels"] and opened["sessionName"]
    roots = [row for row in opened["tree"] if row["depth"] == 0]
    assert len(roots) >= 3  # first root, reset-leaf root, orphan
