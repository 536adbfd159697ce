"""Large sessions and many-session stores (benchmarks), built fast from a pool of text."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from pitui.demo.builder import (
    BASE_MS,
    MODELS,
    Entry,
    SessionBuilder,
    iso_ms,
    make_header,
    session_path,
    write_session,
)
from pitui.demo.content import (
    ANSWERS,
    ASKS,
    FILES,
    SYSTEM_MESSAGE,
    THOUGHTS,
    TOPICS,
    code_output,
    pick_text,
)


@dataclass
class _TextPool:
    """Pre-generated text slices so large files are fast to build."""

    rng: random.Random
    blob: str = ""

    def __post_init__(self) -> None:
        self.blob = code_output(self.rng, 4_000)

    def take(self, size: int) -> str:
        start = self.rng.randrange(0, len(self.blob) - size - 1)
        return self.blob[start : start + size]


EDIT_SHARE = 0.2  # of the calls, in a store with edits: an edit, or (one in four) a write


def _file_call(b: SessionBuilder, pool: _TextPool, edits: bool) -> Entry:
    """A read of one of the project's files, or with `edits` sometimes an edit or a write."""
    rng = b.rng
    path = rng.choice(FILES)
    roll = rng.random() if edits else 1.0  # no draw without edits: the same stores as before
    if roll < EDIT_SHARE * 0.75:
        old = pool.take(rng.randint(20, 120))
        replacement = {"oldText": old, "newText": old + "\n# changed"}
        return b.tool_call("edit", {"path": path, "edits": [replacement]})
    if roll < EDIT_SHARE:
        return b.tool_call("write", {"path": path, "content": pool.take(rng.randint(200, 2_000))})
    return b.tool_call("read", {"path": path})


def _result_text(b: SessionBuilder, call: Entry, pool: _TextPool) -> str:
    path = call["arguments"]["path"]
    if call["name"] == "edit":
        return f"Successfully replaced 1 block(s) in {path}."
    if call["name"] == "write":
        return f"Successfully wrote {len(call['arguments']['content'])} bytes to {path}"
    return pool.take(b.rng.randint(200, 2_000))


def _large_turn(b: SessionBuilder, pool: _TextPool, edits: bool = False) -> None:
    rng = b.rng
    b.user(pick_text(rng, ASKS) + " " + pool.take(rng.randint(20, 200)))
    for _ in range(rng.randint(1, 4)):
        calls = [_file_call(b, pool, edits) for _ in range(rng.randint(1, 2))]
        blocks: list[Entry] = [
            {
                "type": "thinking",
                "thinking": pick_text(rng, THOUGHTS) + " " + pool.take(rng.randint(50, 400)),
            },
            {"type": "text", "text": "Reading the relevant files."},
        ]
        b.assistant(blocks + calls, stop="toolUse")
        for call in calls:
            b.tool_result(call, _result_text(b, call, pool), is_error=rng.random() < 0.03)
    b.assistant(
        [
            {
                "type": "text",
                "text": pick_text(rng, ANSWERS) + "\n\n" + pool.take(rng.randint(50, 600)),
            }
        ]
    )


def _large_events(b: SessionBuilder, count: int) -> None:
    """Occasional model changes, branches and compactions, spread over the session."""
    rng = b.rng
    roll = rng.random()
    if roll < 0.03:
        b.set_model(rng.randrange(len(MODELS)))
    elif roll < 0.035 and count > 50:
        path = b.path_ids()[-40:]
        b.branch_summary(path[len(path) // 2], b.leaf or "", "Tried another approach; reverted.")
    elif roll < 0.038 and count > 50:
        kept: list[str | None] = [*b.find_on_path("user")[-2:]] or [None]
        b.compaction(
            "## Goal\nKeep going.\n\n## Progress\n" + "- step done\n" * 20, kept[0], 150_000
        )


class _FastBuilder(SessionBuilder):
    """Builder whose ``path_ids`` is cheap enough for 100k-entry sessions."""

    def path_ids(self, leaf: str | None = None) -> list[str]:
        tail = self.entries[-400:]
        by_id = {e["id"]: e for e in tail}
        out: list[str] = []
        cur = by_id.get(leaf or self.leaf or "")
        while cur is not None:
            out.append(cur["id"])
            cur = by_id.get(cur["parentId"]) if cur["parentId"] else None
        return out[::-1]


def generate_large_session(
    path: Path | str, n_entries: int = 100_000, seed: int = 0, cwd: str = "/home/dev/big-project"
) -> Path:
    """A realistic session of ``n_entries`` entries (about 1 KB each on average)."""
    rng = random.Random(seed)
    header = make_header(rng, cwd, BASE_MS)
    b = _FastBuilder(rng, BASE_MS)
    pool = _TextPool(rng)
    b.message(dict(SYSTEM_MESSAGE))
    b.set_model(0)
    while len(b.entries) < n_entries:
        _large_turn(b, pool)
        _large_events(b, len(b.entries))
    return write_session(path, header, b.entries[:n_entries])


def generate_store(
    root: Path | str,
    n_sessions: int,
    entries_per_session: int,
    seed: int = 0,
    *,
    edits: bool = False,
) -> list[Path]:
    """Many sessions over ~20 project folders under a sessions root (catalog benchmarks);
    `edits`: a fifth of the tool calls edit or write the project's files (else all read)."""
    root = Path(root)
    rng = random.Random(seed)
    cwds = [f"/home/dev/projects/project-{i:02d}" for i in range(20)]
    paths: list[Path] = []
    ms = BASE_MS
    pool = _TextPool(rng)
    for i in range(n_sessions):
        ms += rng.randint(60_000, 7_200_000)
        header = make_header(rng, cwds[rng.randrange(len(cwds))], ms)
        b = _FastBuilder(rng, ms)
        b.set_model(rng.randrange(len(MODELS)))
        while len(b.entries) < entries_per_session:
            _large_turn(b, pool, edits)
            _large_events(b, len(b.entries))
        entries = b.entries[:entries_per_session]
        if rng.random() < 0.3:
            entries.append(_session_info(b, entries[-1], f"Task {i}: {rng.choice(TOPICS)}"))
        paths.append(write_session(session_path(root, header), header, entries))
    return paths


def _session_info(b: SessionBuilder, last: Entry, name: str) -> Entry:
    """The session's name, after `last` (the builder's entries may go on past the store's
    cut: a parent taken from them was no entry of the file)."""
    b.tick()
    return {
        "type": "session_info",
        "id": b.new_id(),
        "parentId": last["id"],
        "timestamp": iso_ms(b.ms),
        "name": name,
    }
