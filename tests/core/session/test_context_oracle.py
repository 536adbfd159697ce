"""Conformance: pitui's context of many leaves equals Pi 1.6.0's buildSessionContext."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from pitui.core.format.jsonline import dumps
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


def _line(**fields: Any) -> str:
    return json.dumps(fields)


def test_usage_before_a_later_edit_or_compaction_is_not_trusted(
    pi_oracle: Any, tmp_path: Path
) -> None:
    """After a context edit, Pi's context usage is chars/4 of what is sent, not the last
    usage, which counted the message now omitted: pitui showed the same ~2,292 tokens before
    and after the omit (Pi: 253). System messages are replayed into one, sections patched
    and tools added and removed by name, as Pi's getCurrentSystemMessage."""
    stamp = "2026-01-01T00:00:0{}.000Z"
    big = "word " * 4000
    usage = {"input": 5000, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 5010}
    tool = {"name": "read", "description": "Read a file", "parameters": {"type": "object"}}

    def system(n: int, **fields: Any) -> dict[str, Any]:
        return {"role": "system", "timestamp": n, **fields}

    lines = [
        _line(type="session", version=3, id="s", timestamp=stamp.format(0), cwd="/w"),
        _line(
            type="message",
            id="y1",
            parentId=None,
            timestamp=stamp.format(1),
            message=system(1, content="base", sections={"a": "one", "b": "two"}, toolsAdded=[tool]),
        ),
        _line(
            type="message",
            id="u1",
            parentId="y1",
            timestamp=stamp.format(2),
            message={"role": "user", "content": big, "timestamp": 2},
        ),
        _line(
            type="message",
            id="a1",
            parentId="u1",
            timestamp=stamp.format(3),
            message={
                "role": "assistant",
                "content": [{"type": "text", "text": "ok"}],
                "usage": usage,
                "stopReason": "stop",
                "timestamp": 3,
            },
        ),
        _line(
            type="message",
            id="y2",
            parentId="a1",
            timestamp=stamp.format(4),
            message=system(
                4,
                content=[{"type": "text", "text": "more"}],
                sections={"a": None},
                toolsRemoved=[{"name": "read"}],
            ),
        ),
        _line(
            type="context_edit",
            id="e1",
            parentId="y2",
            timestamp=stamp.format(5),
            targetId="u1",
            replacement=None,
        ),
        _line(
            type="message",
            id="u2",
            parentId="e1",
            timestamp=stamp.format(6),
            message={"role": "user", "content": "and now?", "timestamp": 6},
        ),
    ]
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    session = Session(path)
    for leaf in ("a1", "y2", "e1", "u2"):
        pi = pi_oracle.request({"op": "context", "file": str(path), "leafId": leaf})
        ours = session.context(leaf)
        assert as_json(ours.to_json())["messages"] == pi["messages"], leaf
        assert ours.tokens == pi["tokens"], leaf
    assert session.context("a1").tokens == 5010  # the usage holds: nothing after it
    assert session.context("u2").tokens < 100  # the omitted message's 5,000 are gone


def test_integers_past_python_digit_limit_keep_their_message(
    pi_oracle: Any, tmp_path: Path
) -> None:
    """An integer of 4,401 digits in a message (JSON.parse: Infinity) dropped the whole
    message from pitui's context (Python's int() of text stops at 4,300 digits); Pi keeps it.
    Compared as JSON.stringify writes both (Infinity as null)."""
    stamp = "2026-01-01T00:00:0{}.000Z"
    huge = "1" + "0" * 4400
    usage = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}
    reply = {
        "role": "assistant",
        "content": [{"type": "text", "text": "the answer"}],
        "provider": "p",
        "model": "m",
        "usage": usage,
        "stopReason": "stop",
        "timestamp": 2,
        "details": {"n": 0},
    }
    lines = [
        _line(type="session", version=3, id="s", timestamp=stamp.format(0), cwd="/w"),
        _line(
            type="message",
            id="u1",
            parentId=None,
            timestamp=stamp.format(1),
            message={"role": "user", "content": "keep me", "timestamp": 1},
        ),
        _line(
            type="message", id="a1", parentId="u1", timestamp=stamp.format(2), message=reply
        ).replace('"n": 0', '"n": ' + huge),
        _line(
            type="message",
            id="u2",
            parentId="a1",
            timestamp=stamp.format(3),
            message={"role": "user", "content": "next \ud800", "timestamp": 777},
        ).replace('"timestamp": 777', '"timestamp": -' + "9" * 5000),
    ]
    path = tmp_path / "huge.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    pi = pi_oracle.request({"op": "context", "file": str(path), "leafId": "u2"})
    ours = Session(path).context("u2")
    assert len(pi["messages"]) == 3
    assert json.loads(dumps(ours.to_json()["messages"])) == pi["messages"]
    assert ours.to_json()["model"] == pi["model"]
    assert ours.tokens == pi["tokens"]
