"""`pitui list` and `pitui stats` give a kept answer only while it is the answer they would
compute: after any change to the store, the pins or the scope, what they print is what they
print with no kept answer (and, for a listing, what `--no-cache` prints)."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "usage"))
from usage_store import build_store

from pitui.cli import main

FOLDERS = ("--p1--", "--p2--")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return tmp_path


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _computed(capsys: pytest.CaptureFixture[str], cache: Path, *args: str) -> str:
    """The answer computed afresh (the kept answers set aside, the indexes kept)."""
    shutil.rmtree(cache / "answers", ignore_errors=True)
    return _out(capsys, *args)


def test_a_kept_answer_computes_nothing(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    build_store(env / "agent" / "sessions")
    first = {c: _out(capsys, *c) for c in (("list", "--all", "--json"), ("stats", "--all"))}

    def computed(*args: object) -> int:
        raise AssertionError("computed again")

    monkeypatch.setattr("pitui.commands.list.print_listing", computed)
    monkeypatch.setattr("pitui.commands.stats.print_stats", computed)
    for command, out in first.items():
        assert _out(capsys, *command) == out


def test_stats_of_a_fork_follow_its_parent_leaving(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copied reply counts in the parent while it is present, in the fork once it is gone
    (`groups.counted_rows`): the fork's folder alone is the scope, its parent is in another."""
    paths = build_store(env / "agent" / "sessions")
    grandchild, child = paths[9], paths[8]
    assert grandchild.parent != child.parent
    args = ("stats", "--all", "--session-dir", str(grandchild.parent), "--by", "session")
    before = _out(capsys, *args, "--json")
    assert _out(capsys, *args, "--json") == before
    child.rename(env / "gone.jsonl")
    after = _out(capsys, *args, "--json")
    assert after == _computed(capsys, env / "cache", *args, "--json")
    assert after != before


def test_a_pin_changes_the_listing(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = build_store(env / "agent" / "sessions")
    before = _out(capsys, "list", "--all")
    assert main(["pin", str(paths[3])]) == 0
    capsys.readouterr()
    after = _out(capsys, "list", "--all")
    assert after != before
    assert after == _computed(capsys, env / "cache", "list", "--all")


def test_time_zone_is_part_of_the_key(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    build_store(env / "agent" / "sessions")
    try:
        for zone in ("UTC", "Asia/Kolkata", "UTC"):
            monkeypatch.setenv("TZ", zone)
            time.tzset()
            shown = _out(capsys, "list", "--all")
            assert shown == _computed(capsys, env / "cache", "list", "--all")
            assert ("2026-01-01 17:34" in shown) == (zone == "UTC")
    finally:
        monkeypatch.undo()
        time.tzset()


def _session(path: Path, sid: str, minute: int, parent: str | None = None) -> None:
    stamp = f"2026-01-01T00:{minute:02d}:00.000Z"
    header = {"type": "session", "version": 3, "id": sid, "timestamp": stamp, "cwd": "/w",
              "parentSession": parent}  # fmt: skip
    usage = {"input": 1, "output": 2, "cacheRead": 3, "cacheWrite": 4, "totalTokens": 10,
             "cost": {"input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0,
                      "total": 0.3}}  # fmt: skip
    reply = {"type": "message", "id": "a1", "parentId": None, "timestamp": stamp,
             "message": {"role": "assistant", "content": [{"type": "text", "text": sid}],
                         "provider": "p", "model": "m", "usage": usage, "timestamp": 1}}  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(reply) + b"\n")


OPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "fork", "append", "delete", "rmfolder", "pin", "settings"]),
        st.sampled_from(FOLDERS),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=8,
)
COMMANDS = (
    ("list", "--all", "--json"),
    ("list", "--all"),
    ("stats", "--all", "--json"),
    ("stats", "--all", "--by", "session"),
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_kept_answers_are_the_computed_ones(  # type: ignore[no-untyped-def]
    tmp_path_factory, monkeypatch, capsys, ops
) -> None:
    base = tmp_path_factory.mktemp("kept")
    agent, cache = base / "agent", base / "cache"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(cache))
    monkeypatch.setenv("PITUI_DATA_DIR", str(base / "data"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    root = agent / "sessions"
    for command in COMMANDS:  # kept once before the first change
        _out(capsys, *command)
    for step, (op, folder, n) in enumerate(ops):
        path = root / folder / f"s{n}.jsonl"
        if op == "add":
            _session(path, f"{folder}{n}", n)
        elif op == "fork":
            others = sorted(p for p in root.rglob("*.jsonl") if p != path)
            _session(path, f"{folder}{n}-fork", n, str(others[0]) if others else None)
        elif op == "append" and path.exists():
            with path.open("ab") as fh:
                fh.write(b'{"type":"session_info","id":"x%d","parentId":"a1","name":"n%d"}\n'
                         % (step, step))  # fmt: skip
        elif op == "delete":
            path.unlink(missing_ok=True)
        elif op == "rmfolder":
            shutil.rmtree(root / folder, ignore_errors=True)
        elif op == "pin" and path.exists():
            _out(capsys, "pin", str(path))
        elif op == "settings":
            agent.mkdir(parents=True, exist_ok=True)
            (agent / "settings.json").write_text(json.dumps({"sessionDir": str(root / folder)}))
        for command in COMMANDS:
            kept = _out(capsys, *command)
            assert kept == _computed(capsys, cache, *command), (op, command)
        listed = _out(capsys, "list", "--all", "--json")
        assert listed == _out(capsys, "list", "--all", "--json", "--no-cache")
