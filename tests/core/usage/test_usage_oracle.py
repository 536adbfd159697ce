"""Per session, pitui's sums by model equal Pi 1.6.0's own `getUsageCostBreakdown`."""

from __future__ import annotations

import json
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


@pytest.mark.oracle
def test_sums_by_model_equal_pis(tmp_path: Path, pi_oracle: Any) -> None:
    paths = build_store(tmp_path / "sessions")
    paths = [p for p in paths if p != paths[0]]  # paths[0] repeats an id: Pi counts it twice
    node = oracle_available()  # the fixture skipped already if there is none
    assert node is not None
    done = subprocess.run(
        [node, str(SCRIPT), str(oracle_dir()), *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    pi = json.loads(done.stdout)
    for path in paths:
        theirs = {item["key"]: (item["cost"], item["tokens"]) for item in pi[str(path)]}
        ours = _ours(path)
        assert set(ours) == set(theirs), path
        for key, (cost, tokens) in theirs.items():
            assert ours[key][0] == pytest.approx(cost, rel=1e-9), (path, key)
            assert ours[key][1] == tokens, (path, key)
