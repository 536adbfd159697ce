"""The `cost` and `size` sorts: largest first, over the search's matches, in `pitui list`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import orjson
import pytest
from entry_builders import header, msg

from pitui.cli import main
from pitui.core.catalog.search.search import SORTS, run_search
from pitui.core.catalog.summary import SessionSummary

# (file name, first message, cost of each assistant reply, padding that makes the file large)
SESSIONS = [
    ("a", "alpha cheap but big", [0.01], 40_000),
    ("b", "beta costly", [0.5, 0.75], 0),
    ("c", "gamma middle", [0.2], 9_000),
    ("d", "alpha free", [], 100),
]


def _summary(path: str, cost: float, size: int, modified: int, text: str = "") -> SessionSummary:
    return SessionSummary(
        path=path, id=path, cwd="/p", name=None, parent_session_path=None, created_ms=modified,
        modified_ms=modified, message_count=1, first_message=text, all_messages_text=text,
        total_cost=cost, size=size,
    )  # fmt: skip


def test_sorts_reachable() -> None:
    assert {"cost", "size"} <= set(SORTS)


@pytest.mark.parametrize(("sort", "field"), [("cost", "total_cost"), ("size", "size")])
def test_largest_first_ties_keep_newest_first(sort: str, field: str) -> None:
    values = [3.0, 7.0, 3.0, 0.0, 12.0]
    newest_first = [
        _summary(f"/s/{i}.jsonl", cost=v, size=int(v), modified=100 - i)
        for i, v in enumerate(values)
    ]
    rows = run_search(newest_first, "", sort, False).rows
    got = [row.summary for row in rows]
    assert [getattr(s, field) for s in got] == sorted(values, reverse=True)
    threes = [s.path for s in got if getattr(s, field) == 3]
    assert threes == ["/s/0.jsonl", "/s/2.jsonl"]  # stable: newest first
    assert all(row.depth == 0 for row in rows)  # flat, never threaded


def test_nan_cost_goes_last() -> None:
    sessions = [_summary("/n", float("nan"), 0, 3), _summary("/one", 1.0, 0, 2),
                _summary("/inf", float("inf"), 0, 1)]  # fmt: skip
    assert [r.summary.path for r in run_search(sessions, "", "cost", False).rows] == [
        "/inf",
        "/one",
        "/n",
    ]


def test_query_selects_measure_orders() -> None:
    sessions = [
        _summary("/x", 1.0, 10, 3, "alpha small"),
        _summary("/y", 9.0, 5, 2, "beta"),
        _summary("/z", 4.0, 50, 1, "alpha large"),
    ]
    by_cost = run_search(sessions, "alpha", "cost", False).rows
    assert [r.summary.path for r in by_cost] == ["/z", "/x"]
    by_size = run_search(sessions, "alpha", "size", False).rows
    assert [r.summary.path for r in by_size] == ["/z", "/x"]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent = tmp_path / "agent"
    folder = agent / "sessions" / "--p--"
    folder.mkdir(parents=True)
    for n, (name, first, costs, pad) in enumerate(SESSIONS):
        lines = [header(name), msg("u1", None, text=first + " " + "x" * pad, n=1)]
        parent = "u1"
        for i, cost in enumerate(costs):
            usage = {"input": 1, "output": 1, "cost": {"total": cost}}
            lines.append(msg(f"a{i}", parent, "assistant", "ok", n=2 + i, usage=usage))
            parent = f"a{i}"
        path = folder / f"{name}.jsonl"
        path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return folder


def _listed(args: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["list", "--all", "--json", *args]) == 0
    return [Path(d["path"]).stem for d in json.loads(capsys.readouterr().out)]


def test_list_sort_cost(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = sorted(SESSIONS, key=lambda s: -sum(s[2]))
    assert _listed(["--sort", "cost"], capsys) == [s[0] for s in expected]


def test_list_sort_size(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {p.stem: p.stat().st_size for p in store.glob("*.jsonl")}
    assert _listed(["--sort", "size"], capsys) == sorted(sizes, key=lambda k: -sizes[k])
    assert _listed(["--sort", "size", "alpha"], capsys) == ["a", "d"]


def test_list_sort_table(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all", "--sort", "cost"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    firsts = ["beta costly", "gamma middle", "alpha cheap", "alpha free"]
    assert [next(f for f in firsts if f in line) for line in lines] == firsts
