"""The usage and secrets caches see an edit in place: same size, same inode, the mtime set
back; only the ctime tells (issue 25)."""

from __future__ import annotations

import random
import string
from pathlib import Path

import orjson
import pytest
from entry_builders import header, message_entry, msg
from in_place import edit_in_place

from pitui.core.secrets.found_cache import SecretsCache
from pitui.core.usage.groups import summarize
from pitui.core.usage.load import load_usage

_rng = random.Random(25)
GITHUB = "ghp_" + "".join(_rng.choice(string.ascii_letters + string.digits) for _ in range(36))
MASKED = "x" * len(GITHUB)


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return path


def _reply(cost: float) -> dict[str, object]:
    usage = {"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30,
             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": cost}}  # fmt: skip
    message = {"role": "assistant", "content": [{"type": "text", "text": "done"}],
               "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage,
               "stopReason": "stop", "timestamp": 1_735_689_601_000}  # fmt: skip
    return message_entry("a1", "u1", message, n=1)


def test_stats_cost_after_a_same_size_edit_with_mtime_set_back(tmp_path: Path) -> None:
    path = _write(tmp_path / "s" / "a.jsonl", [header("a"), msg("u1", None), _reply(0.4)])
    cache = tmp_path / "cache"

    def cost() -> float:
        infos, rows, *_ = load_usage([str(path)], folder=cache)
        return summarize(infos, rows, "day").total.cost

    assert cost() == pytest.approx(0.4)
    edit_in_place(path, {b'"total":0.4': b'"total":1.8'})
    assert cost() == pytest.approx(1.8)


def test_secrets_cache_after_the_key_is_masked_in_place(tmp_path: Path) -> None:
    lines = [header("a"), msg("u1", None, text=f"use {GITHUB} please"), msg("u2", "u1")]
    path = str(_write(tmp_path / "s" / "a.jsonl", lines))
    assert SecretsCache(tmp_path / "c").kinds_of([path])
    cache = SecretsCache(tmp_path / "c")
    assert cache.kinds_of([path])  # remembered
    cache.close()
    edit_in_place(Path(path), {GITHUB.encode(): MASKED.encode()})
    assert SecretsCache(tmp_path / "c").kinds_of([path]) == {}
    assert cache.kinds_of([path]) == {}  # the same cache object, kept open (the picker)


def test_secrets_cache_after_a_masked_key_then_an_append(tmp_path: Path) -> None:
    """Every line ends where it did and the file grew: only the changed bytes before the end
    of what was read (1.5 KiB back, 1 KiB from the start) tell that it was not only appended to."""
    lines = [header("a"), msg("u0", None, text="z" * 1000), msg("u1", "u0", text=f"k {GITHUB}"),
             msg("u2", "u1", text="y" * 1500)]  # fmt: skip
    path = _write(tmp_path / "s" / "a.jsonl", lines)
    cache = SecretsCache(tmp_path / "c")
    assert cache.kinds_of([str(path)])
    edit_in_place(path, {GITHUB.encode(): MASKED.encode()})
    with path.open("ab") as fh:
        fh.write(orjson.dumps(msg("u3", "u2", text="more")) + b"\n")
    assert cache.kinds_of([str(path)]) == {}
