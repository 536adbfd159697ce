"""A generated store for the usage tests: varied sessions (branches, compactions), Pi-style
forks that copy their parent's entries, and independent sums over it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pitui.demo.generate import (
    dumps,
    generate_varied_session,
    iso_ms,
    make_header,
    make_usage,
    session_path,
    write_session,
)

BASE = 1_767_000_000_000
CWDS = ("/home/dev/alpha", "/home/dev/beta")


def fork_of(parent: Path, root: Path, cwd: str, ms: int, rng: random.Random) -> Path:
    """As Pi's `forkFrom`: a new header (parentSession = parent), every entry copied, then a
    reply of its own."""
    lines = parent.read_text(encoding="utf-8").splitlines()
    header = make_header(rng, cwd, ms, parent_session=str(parent))
    copied = [json.loads(line) for line in lines[1:]]
    last = copied[-1]["id"] if copied else None
    own = {
        "type": "message",
        "id": f"f{ms // 1000 % 16**7:07x}",
        "parentId": last,
        "timestamp": iso_ms(ms + 1000),
        "message": {
            "role": "assistant",
            "content": [{"type": "text", "text": "forked reply"}],
            "provider": "anthropic",
            "model": "claude-sonnet-4-5",
            "usage": make_usage(rng),
            "stopReason": "stop",
            "timestamp": ms + 1000,
        },
    }
    return write_session(session_path(root, header), header, [*copied, own])


def extra_entries(path: Path, ms: int, rng: random.Random) -> None:
    """A `usage` entry, a tool result with usage, a compaction with usage, and a line that
    repeats an id (the later one wins)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    add: list[dict[str, Any]] = [
        {
            "type": "usage",
            "id": "aa000001",
            "parentId": last["id"],
            "timestamp": iso_ms(ms),
            "kind": "cache_warm",
            "provider": "anthropic",
            "model": "claude-opus-4-1",
            "usage": make_usage(rng),
        },
        {
            "type": "message",
            "id": "aa000002",
            "parentId": "aa000001",
            "timestamp": iso_ms(ms + 1),
            "message": {
                "role": "toolResult",
                "toolCallId": "x",
                "toolName": "summarize",
                "content": [],
                "isError": False,
                "usage": make_usage(rng),
                "timestamp": ms + 1,
            },
        },
        {
            "type": "compaction",
            "id": "aa000003",
            "parentId": "aa000002",
            "timestamp": iso_ms(ms + 2),
            "summary": "s",
            "firstKeptEntryId": "aa000002",
            "tokensBefore": 10,
            "usage": make_usage(rng),
        },
    ]
    again = dict(add[0], usage=make_usage(rng))  # same id: replaces the first
    with path.open("a", encoding="utf-8") as fh:
        for entry in [*add, again]:
            fh.write(dumps(entry) + "\n")


def build_store(root: Path, seed: int = 3) -> list[Path]:
    rng = random.Random(seed)
    paths: list[Path] = []
    ms = BASE
    for i in range(8):
        ms += 40 * 3_600_000
        header, entries = generate_varied_session(rng, CWDS[i % 2], start_ms=ms, name=f"S{i}")
        paths.append(write_session(session_path(root, header), header, entries))
    extra_entries(paths[0], ms + 5_000_000, rng)
    ms += 90 * 3_600_000
    child = fork_of(paths[1], root, CWDS[1], ms, rng)
    grandchild = fork_of(child, root, CWDS[0], ms + 3_600_000, rng)
    paths += [child, grandchild]
    return paths


def independent_totals(paths: list[Path]) -> dict[str, float]:
    """Sums over every distinct (entry id, timestamp) in the store, the later line of a repeated
    id in a file winning: a reply is the same reply wherever a fork copied it."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        in_file: dict[str, dict[str, Any]] = {}
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            entry = json.loads(line)
            in_file[entry["id"]] = entry
        for entry in in_file.values():
            seen[(entry["id"], entry["timestamp"])] = entry
    totals = dict(messages=0, input=0, output=0, cache_read=0, cache_write=0, cost=0.0)
    for entry in seen.values():
        usage = None
        message = entry.get("message") or {}
        if entry["type"] == "message" and message.get("role") == "assistant":
            totals["messages"] += 1
            usage = message.get("usage")
        elif entry["type"] == "message" and message.get("role") == "toolResult":
            usage = message.get("usage")
        elif entry["type"] in ("usage", "compaction", "branch_summary"):
            usage = entry.get("usage")
        if usage:
            totals["input"] += usage["input"]
            totals["output"] += usage["output"]
            totals["cache_read"] += usage["cacheRead"]
            totals["cache_write"] += usage["cacheWrite"]
            totals["cost"] += usage["cost"]["total"]
    return totals
