"""Sessions in the old formats: v1 (no ids, index-based compaction) and v2."""

from __future__ import annotations

import random

from pitui.demo.builder import BASE_MS, MODELS, Entry, SessionBuilder, iso_ms, make_header
from pitui.demo.content import turn


def generate_v1_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/legacy",
    *,
    start_ms: int = BASE_MS,
    turns: int = 6,
) -> tuple[Entry, list[Entry]]:
    """A v1 session: no version, no ids; compaction uses ``firstKeptEntryIndex``."""
    provider, model, _ = MODELS[0]
    header = make_header(
        rng,
        cwd,
        start_ms,
        version=None,
        extra={"provider": provider, "modelId": model, "thinkingLevel": "off"},
    )
    b = SessionBuilder(rng, start_ms)
    for i in range(turns):
        turn(b, tools=rng.randint(0, 2))
        if i == 1:
            b.set_model(2)
        if i == turns // 2:
            b.add("thinking_level_change", thinkingLevel="low")
    entries = [_strip_ids(e) for e in b.entries]
    # Index into all lines (header = 0): keep from the 4th user message on.
    user_lines = [
        i + 1 for i, e in enumerate(entries) if e.get("message", {}).get("role") == "user"
    ]
    keep = user_lines[min(3, len(user_lines) - 1)]
    b2 = SessionBuilder(rng, b.ms)
    b2.tick()
    entries.append(
        {
            "type": "compaction",
            "timestamp": iso_ms(b2.ms),
            "summary": "The user asked for several refactors; all were done.",
            "firstKeptEntryIndex": keep,
            "tokensBefore": 35_000,
        }
    )
    b2.leaf = None
    turn(b2, tools=1)
    entries.extend(_strip_ids(e) for e in b2.entries)
    return header, entries


def _strip_ids(entry: Entry) -> Entry:
    return {k: v for k, v in entry.items() if k not in ("id", "parentId")}


def generate_v2_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/legacy",
    *,
    start_ms: int = BASE_MS,
    turns: int = 4,
) -> tuple[Entry, list[Entry]]:
    """A v2 session: tree ids, and a message with the old role ``hookMessage``."""
    header = make_header(rng, cwd, start_ms, version=2)
    b = SessionBuilder(rng, start_ms)
    b.set_model(0)
    for i in range(turns):
        fork = turn(b, tools=rng.randint(0, 2))
        if i == 1:
            b.message(
                {
                    "role": "hookMessage",
                    "customType": "git-hook",
                    "content": "pre-commit: 2 files reformatted",
                    "display": True,
                }
            )
    b.leaf = fork
    b.user("Let's go back one step and try another way.")
    b.assistant([{"type": "text", "text": "Alright, trying another way."}])
    return header, b.entries
