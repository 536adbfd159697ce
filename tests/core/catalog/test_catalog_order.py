"""Sessions with equal `modified` are listed in Pi's order: the file's mtime (listAll() only),
then the file name by Node's `localeCompare` (ICU root collation), both newest/greatest first
(issue 14)."""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from oracle import oracle_available

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.search.collation import locale_compare

pytestmark = pytest.mark.oracle
COMPARE_JS = """
const pairs = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(pairs.map(([a, b]) => Math.sign(a.localeCompare(b)))));
"""


def _pi_like_name(rng: random.Random) -> str:
    stamp = f"2026-0{rng.randint(1, 2)}-1{rng.randint(0, 1)}T1{rng.randint(0, 1)}-0{rng.randint(0, 1)}-00-00{rng.randint(0, 1)}Z"
    uuid = "-".join(
        "".join(rng.choice("0123456789abcdef") for _ in range(n)) for n in (8, 4, 4, 4, 2)
    )
    name = f"{stamp}_{uuid}"
    if rng.random() < 0.3:  # renamed, copied or hand-made files
        name = "".join(c.upper() if rng.random() < 0.2 else c for c in name)
    if rng.random() < 0.3:
        cut = rng.randrange(len(name))
        name = name[:cut] + rng.choice("-_.T Z") + name[cut + 1 :]
    return name + rng.choice([".jsonl", ".JSONL", "-copy.jsonl", ".jsonl"])


def _node_signs(pairs: list[tuple[str, str]]) -> list[int]:
    node = oracle_available()
    if node is None:
        pytest.skip("Node (the oracle's) is not installed")
    done = subprocess.run(
        [node, "-e", COMPARE_JS], input=json.dumps(pairs), capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def test_locale_compare_matches_node() -> None:
    rng = random.Random(14)
    names = [_pi_like_name(rng) for _ in range(400)]
    printable = string.printable + "\x00\x01\x1b\x7f"
    names += ["".join(rng.choice(printable) for _ in range(rng.randint(0, 6))) for _ in range(400)]
    pairs = [(rng.choice(names), rng.choice(names)) for _ in range(3000)]
    pairs += [(a, a.swapcase()) for a in names[:200]] + [(a, a[:-1]) for a in names[:200]]
    assert [locale_compare(a, b) for a, b in pairs] == _node_signs(pairs)


def _write(path: Path, sid: str, mtime_ns: int) -> None:
    header = {
        "type": "session",
        "version": 3,
        "id": sid,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": "/w",
    }  # fmt: skip  (no message: every session's modified is this time)
    path.write_bytes(orjson.dumps(header) + b"\n")
    os.utime(path, ns=(mtime_ns, mtime_ns))


def _names(items: list[Any]) -> list[str]:
    return [os.path.basename(p["path"] if isinstance(p, dict) else p.path) for p in items]


def test_equal_modified_in_pis_order(pi_oracle: Any, tmp_path: Path) -> None:
    rng = random.Random(3)
    agent = tmp_path / "agent"
    folders = [agent / "sessions" / f"--f{i}--" for i in range(2)]
    for folder in folders:
        folder.mkdir(parents=True)
    base = 1_767_225_600 * 10**9
    names = {_pi_like_name(rng) for _ in range(60)} | {
        "a.jsonl",
        "A.jsonl",
        "a-b.jsonl",
        "a_b.jsonl",
    }
    for n, name in enumerate(sorted(names)):
        mtime = base + rng.choice([0, 0, 1_000_000, 2_000_000, 500])  # ties, and sub-ms apart
        _write(rng.choice(folders) / name, f"s{n}", mtime)
    pi_all = pi_oracle.request({"op": "listAllDefault", "agentDir": str(agent)})
    for cache in (None, tmp_path / "cache", tmp_path / "cache"):  # uncached, cold, warm
        with Catalog(agent / "sessions", cache_dir=cache, no_cache=cache is None) as catalog:
            catalog.scan(tools="later")
            assert _names(catalog.sessions()) == _names(pi_all)
    for folder in folders:  # listAll(dir) and list(cwd, dir): the name order only
        pi_dir = pi_oracle.request({"op": "listAll", "sessionDir": str(folder)})
        pi_cwd = pi_oracle.request({"op": "list", "cwd": "/w", "sessionDir": str(folder)})
        with Catalog(agent / "sessions", custom_dir=folder, no_cache=True) as catalog:
            catalog.scan(tools="later")
            assert _names(catalog.sessions()) == _names(pi_dir)
            assert _names(catalog.sessions("/w")) == _names(pi_cwd)
