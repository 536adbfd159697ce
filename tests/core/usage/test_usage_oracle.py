"""Per session, pitui's sums by model equal Pi 1.6.0's own `getUsageCostBreakdown`."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pytest
from oracle import oracle_available, oracle_dir
from usage_store import build_store

from pitui.core.usage.extract import read_usage

SCRIPT = Path(__file__).with_name("pi_usage.mjs")


def _ours(path: Path) -> dict[str, tuple[float, float]]:
    usage = read_usage(str(path))
    assert usage is not None
    rows = [(*key, *values) for key, values in usage.buckets.items()]
    rows += [(c.day, c.provider, c.model, *c.values) for c in usage.copies]
    sums: dict[str, list[float]] = {}
    for _day, provider, model, _n, inp, out, cr, cw, cost in rows:
        key = f"{provider}/{model}" if provider else model
        acc = sums.setdefault(key, [0.0, 0.0])
        acc[0] += cost
        acc[1] += inp + out + cr + cw
    return {k: (c, t) for k, (c, t) in sums.items() if c > 0 or t > 0}


def _pis(paths: list[Path]) -> Any:
    """Pi's cost breakdown of each file, by path (the oracle fixture ran first)."""
    node = oracle_available()  # the fixture skipped already if there is none
    assert node is not None
    done = subprocess.run(
        [node, str(SCRIPT), str(oracle_dir()), *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.oracle
def test_sums_by_model_equal_pis(tmp_path: Path, pi_oracle: Any) -> None:
    paths = build_store(tmp_path / "sessions")
    paths = [p for p in paths if p != paths[0]]  # paths[0] repeats an id: Pi counts it twice
    pi = _pis(paths)
    for path in paths:
        theirs = {item["key"]: (item["cost"], item["tokens"]) for item in pi[str(path)]}
        ours = _ours(path)
        assert set(ours) == set(theirs), path
        for key, (cost, tokens) in theirs.items():
            assert ours[key][0] == pytest.approx(cost, rel=1e-9), (path, key)
            assert ours[key][1] == tokens, (path, key)


@pytest.mark.oracle
def test_huge_and_negative_counts_sum_as_pis(tmp_path: Path, pi_oracle: Any) -> None:
    """1e308 and a negative count add as Pi adds them; a sum past the largest double is
    Pi's Infinity (JSON.stringify: null), never a bucket the usage cache cannot hold."""
    header = '{"type":"session","version":3,"id":"%s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n'
    usage = '{"input":%s,"output":-5,"cacheRead":0.5,"cacheWrite":0,"cost":{"total":%s}}'
    paths = []
    for name, values in (("one", [("1e308", "1e308")]), ("two", [("1e308", "1e308")] * 3)):
        lines = [header % name]
        for n, (tokens, cost) in enumerate(values, 1):
            lines.append(
                f'{{"type":"message","id":"a{n}","parentId":null,'
                f'"timestamp":"2026-01-01T00:00:0{n}.000Z","message":{{"role":"assistant",'
                f'"content":[],"provider":"p","model":"m","usage":{usage % (tokens, cost)}}}}}\n'
            )
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(path)
    pi = _pis(paths)
    for path in paths:
        theirs = {item["key"]: (item["cost"], item["tokens"]) for item in pi[str(path)]}
        ours = {
            key: tuple(v if math.isfinite(v) else None for v in values)
            for key, values in _ours(path).items()
        }
        assert ours == theirs, path
    assert pi[str(paths[0])] == [{"key": "p/m", "cost": 1e308, "tokens": 1e308}]
    usage = read_usage(str(paths[1]))  # what the usage cache keeps: finite rows (JSON)
    assert usage is not None
    rows = [*usage.buckets.values(), *(c.values for c in usage.copies)]
    assert len(rows) == 3 and all(math.isfinite(v) for row in rows for v in row)
