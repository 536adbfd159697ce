"""The picker's search gives Pi's answer: for each query, sort and name filter, the sessions
Pi's own `filterAndSortSessions` shows over its `listAll()`, in its order (a store with no
labels or tool output, which pitui's extra tiers would add to)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from pitui.core.catalog.catalog import Catalog

pytestmark = pytest.mark.oracle

WORDS = ["parser", "Parser", "cache", "retry", "checkout", "flow", "abc123", "x9", "straße",
         "İstanbul", "ΣΟΦΟΣ", "naïve", "tree-view", "log_file", "a.b", "ui", "v2"]  # fmt: skip
NAMES = [None, None, None, "Fix the parser", "  retry   loop ", "Checkout flow\tbug", "abc123",
         "ΣΟΦΟΣ notes", "İstanbul trip", "tree-view widget", "", "   "]  # fmt: skip
CWDS = ["/home/dev/project-07", "/home/dev/project-17", "/work/my app", "/srv/a.b/log_file",
        "/tmp/İ", "/home/dev/pr7", "/w/ab12", "/w/12ab/x"]  # fmt: skip
QUERIES = ["parser", "PARSER", "pars", "retry loop", '"retry loop"', '"checkout  flow"', "flow",
           "pjt07", "prj", "123abc", "abc123", "x9", "9x", "straße", "STRASSE", "istanbul",
           "İstanbul", "σοφος", "naive", "tree view", "tree-view", "log_file", "a.b", "ui",
           "u", "cache retry", '"retry', "dev project", "project-07", "zzz", "re:^fix",
           "re:flow|cache", "re:(", "re:", "   ", '""', "07 parser", "ab12", "12ab", "pr7",
           "7pr", "dev7", "7dev", "hdp", "fxp", "rtl", "ckf", "w12", "tvw"]  # fmt: skip


def _session(rng: random.Random, n: int) -> list[dict[str, Any]]:
    sid = f"{rng.getrandbits(32):08x}-{n:04d}"
    lines: list[dict[str, Any]] = [
        {
            "type": "session",
            "version": 3,
            "id": sid,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "cwd": rng.choice(CWDS),
        }
    ]
    parent = None
    for m in range(rng.randint(0, 4)):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
        text = text.replace(" ", rng.choice([" ", "  ", "\n", "\t "]), 1)
        eid = f"{n:04x}{m:04x}"
        stamp = f"2026-01-0{rng.randint(1, 3)}T00:00:0{rng.randint(0, 2)}.000Z"  # ties
        role = "user" if m % 2 == 0 else "assistant"
        content: Any = text if role == "user" else [{"type": "text", "text": text}]
        lines.append({"type": "message", "id": eid, "parentId": parent, "timestamp": stamp,
                      "message": {"role": role, "content": content}})  # fmt: skip
        parent = eid
    name = rng.choice(NAMES) if rng.random() < 0.6 else " ".join(rng.sample(WORDS, 3))
    if name is not None:
        lines.append({"type": "session_info", "id": f"{n:04x}ffff", "parentId": parent,
                      "timestamp": "2026-01-01T00:00:00.000Z", "name": name})  # fmt: skip
    return lines


def _store(agent: Path) -> None:
    rng = random.Random(33)
    for n in range(150):
        lines = _session(rng, n)
        folder = agent / "sessions" / f"--f{n % 3}--"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"2026-01-01T00-00-00-000Z_{n:04d}.jsonl"
        path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
        stamp = 1_767_225_600 * 10**9 + rng.choice([0, 0, 10**6])
        os.utime(path, ns=(stamp, stamp))


@pytest.mark.parametrize(
    ("sort", "named"),
    [
        ("recent", False),
        ("relevance", False),
        ("threaded", False),
        ("relevance", True),
    ],
)
def test_the_search_shows_what_pi_shows(
    pi_oracle: Any, tmp_path: Path, sort: str, named: bool
) -> None:
    agent = tmp_path / "agent"
    _store(agent)
    pi = pi_oracle.request(
        {
            "op": "search",
            "agentDir": str(agent),
            "queries": QUERIES,
            "sortMode": sort,
            "nameFilter": "named" if named else "all",
        }
    )
    with Catalog(agent / "sessions", cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="now")
        for query, expected in zip(QUERIES, pi, strict=True):
            if not query.strip():
                continue  # no query: Pi lists (or threads) every session, not a search
            result = catalog.search(query, sort=sort, named_only=named)
            if result.error:  # Pi shows nothing for a query it cannot parse
                assert expected == [], query
                continue
            assert [row.summary.path for row in result.rows] == expected, query
