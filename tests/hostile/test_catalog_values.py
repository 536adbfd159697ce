"""Values Pi writes that once broke a listing: lone UTF-16 surrogates (issue 14), numbers past
64 bits or past a double (issue 18). Every session is still listed, by a cold, a warm and an
uncached index alike, and one session that cannot be indexed never hides the others."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.session_info import builder as builder_module
from pitui.core.catalog.summary import PI_KEYS

REPO = Path(__file__).resolve().parents[2]
HEADER = '{"type":"session","version":3,"id":"%s","timestamp":"2026-01-0%dT00:00:00Z","cwd":"/w"}'
USER = ('{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-0%dT00:00:01Z",'
        '"message":{"role":"user","content":"%s"}}')  # fmt: skip
ASSISTANT = ('{"type":"message","id":"a","parentId":"u","timestamp":"2026-01-0%dT00:00:02Z",'
             '"message":{"role":"assistant","content":"ok","usage":%s}}')  # fmt: skip
SESSIONS = {
    "surrogate": ("cut in half \\ud83d here", '{"totalTokens":5}'),
    "huge-int": ("huge int", '{"totalTokens":99999999999999999999}'),
    "overflow": ("overflow", '{"totalTokens":1e400,"cost":{"total":1e400}}'),
    "wide-cost": ("wide cost", '{"totalTokens":-1e400,"cost":{"total":%s}}' % ("9" * 400)),
    "plain": ("plain text", '{"totalTokens":7,"cost":{"total":0.5}}'),
}


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    for day, (sid, (text, usage)) in enumerate(SESSIONS.items(), start=1):
        lines = [HEADER % (sid, day), USER % (day, text), ASSISTANT % (day, usage)]
        (folder / f"{sid}.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path / "agent"


def _pitui(agent: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent), "PYTHONPATH": str(REPO),
           "PITUI_CACHE_DIR": str(agent.parent / "cache")}  # fmt: skip
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "pitui", *args], capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    return done


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_json_lists_every_session_with_js_values(agent: Path, cache: list[str]) -> None:
    for _ in range(2):  # cold, then warm
        out = _pitui(agent, "list", "--all", "--json", *cache).stdout
        assert b'"cut in half \\ud83d here"' in out  # the escape JSON.stringify writes
        data = {d["id"]: d for d in json.loads(out)}
        assert sorted(data) == sorted(SESSIONS)
        assert data["surrogate"]["firstMessage"] == "cut in half \ud83d here"
        assert data["huge-int"]["totalTokens"] == 1e20  # a double, as JavaScript reads it
        assert data["overflow"]["totalTokens"] is None  # Infinity: JSON.stringify's null
        assert data["overflow"]["totalCost"] is None
        assert data["wide-cost"]["totalCost"] is None
        assert data["plain"]["totalTokens"] == 7 and data["plain"]["totalCost"] == 0.5


def test_text_output_and_search(agent: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    out = _pitui(agent, "list", "--all").stdout.decode()  # a real stdout (UTF-8, strict)
    assert "cut in half \ufffd here" in out and "overflow" in out
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(agent.parent / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    for query in ("half", "here", "half", "here"):  # the second time from a warm index
        assert main(["list", "--all", "--json", query]) == 0
        assert [d["id"] for d in json.loads(capsys.readouterr().out)] == ["surrogate"]


def test_surrogates_match_pi(pi_oracle: Any, agent: Path) -> None:
    pi = pi_oracle.request({"op": "listAllDefault", "agentDir": str(agent)})
    with Catalog(agent / "sessions", cache_dir=agent.parent / "c") as catalog:
        catalog.scan()
    with Catalog(agent / "sessions", cache_dir=agent.parent / "c") as catalog:  # warm
        catalog.scan()
        mine = [s.pi_json() for s in catalog.sessions()]
    assert [{k: p.get(k) for k in PI_KEYS} for p in pi] == mine


def test_a_session_that_cannot_be_indexed_is_listed(
    agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = builder_module.SummaryBuilder._model

    def broken(self: Any, model: Any) -> None:
        if self.header and self.header.get("id") == "plain":
            raise RuntimeError("boom")
        real(self, model)

    monkeypatch.setattr(builder_module.SummaryBuilder, "_model", broken)
    with Catalog(agent / "sessions", cache_dir=tmp_path / "c2") as catalog:
        report = catalog.scan()
        listed = {s.id: s for s in catalog.sessions()}
    assert sorted(listed) == sorted(SESSIONS)
    assert "boom" in (listed["plain"].problem or "")
    assert listed["plain"].first_message == "plain text"  # what could be read
    assert any("plain.jsonl" in p and "boom" in p for p in report.problems)


def test_file_name_not_utf8(agent: Path) -> None:
    """A name SQLite cannot store (not UTF-8) costs only that file's caching: it is listed."""
    folder = agent / "sessions" / "--w--"
    data = (folder / "plain.jsonl").read_bytes().replace(b'"plain"', b'"odd-name"', 1)
    with open(os.path.join(os.fsencode(folder), b"odd-\xff.jsonl"), "wb") as fh:
        fh.write(data)
    out = _pitui(agent, "list", "--all", "--json").stdout
    assert sorted(d["id"] for d in json.loads(out)) == sorted([*SESSIONS, "odd-name"])
    assert _pitui(agent, "list", "--all").stdout.decode().count("plain text") == 2  # warm


def test_infinite_values_survive_a_resumed_index(agent: Path, tmp_path: Path) -> None:
    """Infinity (JSON.parse of 1e400) in the index state reads back as Infinity after an
    append, as a fresh read gives it."""
    path = agent / "sessions" / "--w--" / "overflow.jsonl"
    with path.open("a") as fh:
        fh.write('{"type":"message","id":"t","parentId":"a","timestamp":"2026-01-03T00:00:03Z",'
                 '"message":{"role":"user","content":"late","timestamp":1e400}}\n')  # fmt: skip
    cache = tmp_path / "c3"
    with Catalog(agent / "sessions", cache_dir=cache) as catalog:
        catalog.scan(tools="later")
    with path.open("a") as fh:
        fh.write('{"type":"label","id":"l","parentId":"t","targetId":"t","label":"x"}\n')
    listings = []
    for cached in (True, False):
        with Catalog(agent / "sessions", cache_dir=cache, no_cache=not cached) as catalog:
            catalog.scan(tools="later")
            listings.append([s.to_json() for s in catalog.sessions()])
    assert listings[0] == listings[1]
