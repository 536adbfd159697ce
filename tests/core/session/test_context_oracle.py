"""Conformance: pitui's context of many leaves equals Pi 1.6.0's buildSessionContext."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pi-real-v1-large-session.jsonl"
LEAVES_PER_FILE = 25

pytestmark = pytest.mark.oracle


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def sample_indices(count: int, rng: random.Random) -> list[int]:
    if count <= LEAVES_PER_FILE:
        return list(range(count))
    return sorted({0, count - 1, *rng.sample(range(count), LEAVES_PER_FILE - 2)})


def assert_same_contexts(pi_oracle: Any, path: Path, rng: random.Random) -> int:
    session = Session(path)
    before = path.read_bytes()
    pi = pi_oracle.request({"op": "context", "file": str(path), "leafIndex": None, "leafId": None})
    ours = session.context()
    assert as_json(ours.to_json()) == {
        k: pi[k] for k in ("messages", "thinkingLevel", "model") if k in pi
    }
    assert ours.tokens == pi["tokens"], path.name
    entries = session.tree.entries
    assert len(pi["leafIds"]) == len(entries)
    checked = 1
    for index in sample_indices(len(entries), rng):
        pi = pi_oracle.request(
            {"op": "context", "file": str(path), "leafIndex": index, "leafId": None}
        )
        ours = session.context(entries[index].id)
        expected = {k: pi[k] for k in ("messages", "thinkingLevel", "model") if k in pi}
        assert as_json(ours.to_json()) == expected, f"{path.name} leaf #{index} {entries[index].id}"
        assert ours.tokens == pi["tokens"]
        checked += 1
    assert path.read_bytes() == before, "reading must never change the file"
    return checked


def test_generated_corpus_matches_pi(pi_oracle: Any, tmp_path: Path) -> None:
    files = generate_corpus(tmp_path / "sessions", seed=7)
    rng = random.Random(1)
    checked = 0
    sessions = 0
    for path in files:
        try:
            Session(path)
        except NotASession:
            continue
        sessions += 1
        checked += assert_same_contexts(pi_oracle, path, rng)
    assert sessions >= 8 and checked >= 100


def test_real_v1_fixture_matches_pi(pi_oracle: Any, tmp_path: Path) -> None:
    copy = tmp_path / "real.jsonl"
    shutil.copyfile(FIXTURE, copy)
    assert assert_same_contexts(pi_oracle, copy, random.Random(2)) > 20
