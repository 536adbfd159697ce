"""The demo store (``pitui --demo``): plays the scripts of :mod:`pitui.demo.script` into files."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from pitui.demo.builder import (
    Entry,
    SessionBuilder,
    make_header,
    png_base64,
    session_path,
    write_session,
)
from pitui.demo.content import SYSTEM_MESSAGE
from pitui.demo.script import DEMO_PROJECTS, DEMO_SCRIPTS, DemoScript, Step

DEMO_BASE_MS = 1_764_583_200_000  # 2025-12-01T10:00:00.000Z


@dataclass
class _DemoState:
    builder: SessionBuilder
    marks: dict[str, str] = field(default_factory=dict)


def _demo_ai(st: _DemoState, step: Step) -> None:
    _, think, text, tools = step
    b = st.builder
    blocks: list[Entry] = []
    if think:
        blocks.append({"type": "thinking", "thinking": think, "thinkingSignature": "demo"})
    if text:
        blocks.append({"type": "text", "text": text})
    calls = [b.tool_call(t[0], t[1]) for t in tools]
    b.assistant(blocks + calls, stop="toolUse" if calls else "stop")
    for call, tool in zip(calls, tools, strict=True):
        b.tool_result(call, tool[2], is_error=len(tool) > 3 and bool(tool[3]))


def _demo_step(st: _DemoState, step: Step) -> None:
    b = st.builder
    kind = step[0]
    if kind == "ai":
        _demo_ai(st, step)
    elif kind == "user":
        b.user(step[1])
    elif kind == "user_img":
        img = {"type": "image", "data": png_base64(8, 6, (30, 120, 200)), "mimeType": "image/png"}
        b.user([{"type": "text", "text": step[1]}, img])
    elif kind == "model":
        b.set_model(step[1])
    elif kind == "thinking":
        b.add("thinking_level_change", thinkingLevel=step[1])
    elif kind == "mark":
        st.marks[step[1]] = b.leaf or ""
    else:
        _demo_tree_step(st, step)


def _demo_tree_step(st: _DemoState, step: Step) -> None:
    b = st.builder
    kind = step[0]
    if kind == "goto":
        st.marks["_abandoned"] = b.leaf or ""
        b.leaf = st.marks[step[1]]
    elif kind == "branch_summary":
        b.branch_summary(b.leaf, st.marks["_abandoned"], step[1])
    elif kind == "label":
        b.label(st.marks[step[1]], step[2])
    elif kind == "name":
        b.add("session_info", name=step[1])
    elif kind == "compact":
        kept = st.marks[step[1]] if step[1] else None
        b.compaction(step[2], kept, step[3], system_message=SYSTEM_MESSAGE)
    elif kind == "bash":
        msg = {"role": "bashExecution", "command": step[1], "output": step[2], "exitCode": step[3]}
        b.message({**msg, "cancelled": False, "truncated": False})
    elif kind == "custom_message":
        b.custom_message(step[1], step[2], True)
    elif kind == "context_edit_last_user":
        target = b.find_on_path("user")[-1]
        b.add("context_edit", targetId=target, replacement={"content": step[1]})
    else:
        raise ValueError(f"unknown demo step {kind!r}")


def _demo_session(
    script: DemoScript, rng: random.Random, parent: tuple[Path, list[Entry]] | None, base_ms: int
) -> tuple[Entry, list[Entry]]:
    start = base_ms + script.start_min * 60_000
    cwd = DEMO_PROJECTS[script.project]
    header = make_header(rng, cwd, start, parent_session=str(parent[0]) if parent else None)
    b = SessionBuilder(rng, start)
    if parent:  # a fork copies the parent's entries verbatim
        b.entries = [dict(e) for e in parent[1]]
        b.ids = {e["id"] for e in b.entries}
        b.leaf = b.entries[-1]["id"] if b.entries else None
        b.ms = max(b.ms, start)
    st = _DemoState(b)
    for step in script.steps:
        _demo_step(st, step)
    if script.name:
        b.add("session_info", name=script.name)
    return header, b.entries


def write_demo_store(root: Path | str, base_ms: int = DEMO_BASE_MS) -> Path:
    """Write the demo data (``pitui --demo``) into agent dir ``root``; return its sessions root.

    Sessions live in ``<root>/sessions/--home-demo-...--/`` and span about five days from
    ``base_ms``. The output is deterministic byte for byte for a given ``root`` and
    ``base_ms`` (a fork's ``parentSession`` is an absolute path under ``root``).
    """
    sessions = Path(root).resolve() / "sessions"
    rng = random.Random(20251201)
    written: dict[str, tuple[Path, list[Entry]]] = {}
    for script in DEMO_SCRIPTS:
        parent = written.get(script.fork_of) if script.fork_of else None
        header, entries = _demo_session(script, rng, parent, base_ms)
        path = write_session(session_path(sessions, header), header, entries)
        written[script.key] = (path, entries)
    return sessions
