"""Tree shape (roots, orphans, duplicates, cycles, labels, names) and context rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from entry_builders import header

from pitui.core.session.session import Session

HEADER = header("s")


def write(tmp_path: Path, *entries: dict[str, Any], header: dict | None = None) -> Session:
    path = tmp_path / "s.jsonl"
    lines = [header or HEADER, *entries]
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))
    return Session(path)


def msg(
    eid: str, parent: str | None, role: str = "user", text: str = "hi", ts: int = 0, **extra: Any
) -> dict:
    content: Any = text if role == "user" else [{"type": "text", "text": text}]
    message = {"role": role, "content": content, "timestamp": 1_700_000_000_000 + ts, **extra}
    return {
        "type": "message",
        "id": eid,
        "parentId": parent,
        "timestamp": f"2025-01-01T00:00:{ts:02d}.000Z",
        "message": message,
    }


def texts(session: Session, leaf: str | object | None = ...) -> list[str]:
    out = []
    for m in session.context(leaf).messages:
        content = m.get("content", m.get("summary"))
        out.append(content if isinstance(content, str) else (content[0]["text"] if content else ""))
    return out


def test_roots_orphans_and_children_by_time(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        msg("a", None, ts=1),
        msg("c", "a", ts=5),
        msg("b", "a", ts=3),
        msg("o", "missing", ts=6),
        msg("self", "self", ts=7),
    )
    assert [e.id for e in s.tree.roots] == ["a", "o", "self"]
    assert [e.id for e in s.tree.children["a"]] == ["b", "c"]
    assert s.tree.leaf.id == "self"


def test_late_parent_adopts_an_orphan(tmp_path: Path) -> None:
    s = write(tmp_path, msg("a", None, ts=1), msg("child", "late", ts=2), msg("late", "a", ts=3))
    assert [e.id for e in s.tree.roots] == ["a"]
    assert [e.id for e in s.tree.path_to("child")] == ["a", "late", "child"]


def test_duplicate_id_later_wins(tmp_path: Path) -> None:
    s = write(tmp_path, msg("a", None, text="first"), msg("a", None, text="second"))
    assert s.tree.get("a").raw["message"]["content"] == "second"
    assert any("duplicate id" in d.reason for d in s.diagnostics)


def test_cycles_are_broken_and_context_terminates(tmp_path: Path) -> None:
    s = write(tmp_path, msg("a", "c", ts=1), msg("b", "a", ts=2), msg("c", "b", ts=3))
    assert [e.id for e in s.tree.roots] == ["a"]
    assert [e.id for e in s.tree.path_to("c")] == ["a", "b", "c"]
    assert len(s.context().messages) == 3
    assert any("cycle" in d.reason for d in s.diagnostics)


def test_long_cycle_and_duplicate_made_cycle(tmp_path: Path) -> None:
    n = 20_000
    entries = [msg(f"e{i}", f"e{(i - 1) % n}", ts=i % 60) for i in range(n)]
    s = write(tmp_path, *entries)
    assert len(s.tree.roots) == 1
    assert len(s.context().messages) == n
    s2 = write(tmp_path, msg("a", None), msg("b", "a"), msg("a", "b"))
    assert len(s2.tree.roots) == 1 and len(s2.context().messages) == 2


def test_labels_and_name_latest_wins(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        msg("a", None),
        {
            "type": "label",
            "id": "l1",
            "parentId": "a",
            "timestamp": "2025-01-01T00:00:01.000Z",
            "targetId": "a",
            "label": "one",
        },
        {
            "type": "session_info",
            "id": "n1",
            "parentId": "l1",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "name": "  Named \n",
        },
        {
            "type": "label",
            "id": "l2",
            "parentId": "n1",
            "timestamp": "2025-01-01T00:00:03.000Z",
            "targetId": "a",
            "label": "two",
        },
    )
    assert s.tree.label_of("a") == "two"
    assert s.tree.labels["a"].timestamp == "2025-01-01T00:00:03.000Z"
    assert s.tree.name == "Named"
    s = write(
        tmp_path,
        msg("a", None),
        {
            "type": "label",
            "id": "l1",
            "parentId": "a",
            "timestamp": "t",
            "targetId": "a",
            "label": "one",
        },
        {"type": "label", "id": "l2", "parentId": "l1", "timestamp": "t", "targetId": "a"},
        {"type": "session_info", "id": "n1", "parentId": "l2", "timestamp": "t", "name": "   "},
    )
    assert s.tree.label_of("a") is None and s.tree.name is None


def test_compaction_keeps_from_first_kept_and_drops_system(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        msg("a", None, text="old"),
        msg("b", "a", text="kept"),
        msg("sys", "b", role="system", text="sys"),
        msg("c", "sys", role="assistant", text="reply"),
        {
            "type": "compaction",
            "id": "k",
            "parentId": "c",
            "timestamp": "2025-01-01T00:01:00.000Z",
            "summary": "S",
            "firstKeptEntryId": "b",
            "tokensBefore": 9,
        },
        msg("d", "k", text="after"),
    )
    assert texts(s) == ["S", "kept", "reply", "after"]
    assert s.context().compaction.id == "k"


def test_retain_none_compaction_and_retained_tail(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        msg("a", None, text="old"),
        {
            "type": "compaction",
            "id": "k",
            "parentId": "a",
            "timestamp": "2025-01-01T00:01:00.000Z",
            "summary": "S",
            "firstKeptEntryId": "k",
            "tokensBefore": 9,
        },
        msg("d", "k", text="after"),
    )
    assert texts(s) == ["S", "after"]
    tail = [
        {"role": "user", "content": "latest request"},
        {"role": "assistant", "content": [{"type": "text", "text": "latest reply"}]},
    ]
    s = write(
        tmp_path,
        msg("a", None, text="old"),
        msg("b", "a", text="would be kept"),
        {
            "type": "compaction",
            "id": "k",
            "parentId": "b",
            "timestamp": "2025-01-01T00:01:00.000Z",
            "summary": "S",
            "firstKeptEntryId": "a",
            "tokensBefore": 9,
            "retainedTail": tail,
            "systemMessage": {"role": "system", "content": "SYS"},
        },
        msg("d", "k", text="after"),
    )
    assert texts(s) == ["SYS", "S", "latest request", "latest reply", "after"]


def test_context_edits_omit_and_replace(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        msg("a", None, text="drop me"),
        msg("b", "a", role="assistant", text="replace me"),
        {
            "type": "context_edit",
            "id": "x1",
            "parentId": "b",
            "timestamp": "t",
            "targetId": "a",
            "replacement": None,
        },
        {
            "type": "context_edit",
            "id": "x2",
            "parentId": "x1",
            "timestamp": "t",
            "targetId": "b",
            "replacement": {"content": "first"},
        },
        {
            "type": "context_edit",
            "id": "x3",
            "parentId": "x2",
            "timestamp": "t",
            "targetId": "b",
            "replacement": {"content": "new"},
        },
    )
    context = s.context()
    assert [m["content"] for m in context.messages] == [[{"type": "text", "text": "new"}]]
    assert context.items[0].omitted and context.items[1].replaced
    assert s.tree.get("b").raw["message"]["content"][0]["text"] == "replace me"


def test_null_content_and_settings(tmp_path: Path) -> None:
    s = write(
        tmp_path,
        {**msg("a", None), "message": {"role": "user", "content": None}},
        {
            "type": "thinking_level_change",
            "id": "t",
            "parentId": "a",
            "timestamp": "t",
            "thinkingLevel": "high",
        },
        {
            "type": "model_change",
            "id": "m",
            "parentId": "t",
            "timestamp": "t",
            "provider": "p",
            "modelId": "x",
        },
    )
    data = s.context().to_json()
    assert data["messages"][0]["content"] == []
    assert data["thinkingLevel"] == "high" and data["model"] == {"provider": "p", "modelId": "x"}


def test_leaf_none_unknown_and_explicit(tmp_path: Path) -> None:
    s = write(tmp_path, msg("a", None, text="1"), msg("b", "a", text="2"), msg("c", "a", text="3"))
    assert texts(s) == ["1", "3"]
    assert texts(s, "b") == ["1", "2"]
    assert texts(s, "nope") == ["1", "3"]
    assert s.context(None).to_json() == {"messages": [], "thinkingLevel": "off", "model": None}


def test_v1_ids_are_stable_and_compaction_index_migrates(tmp_path: Path) -> None:
    header = {"type": "session", "id": "old", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
    lines = [
        {
            "type": "message",
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": "a"},
        },
        {
            "type": "message",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "message": {"role": "hookMessage", "content": "h"},
        },
        {
            "type": "compaction",
            "timestamp": "2025-01-01T00:00:03.000Z",
            "summary": "S",
            "firstKeptEntryIndex": 2,
            "tokensBefore": 1,
        },
    ]
    s1 = write(tmp_path, *lines, header=header)
    s2 = Session(s1.path)
    ids = [e.id for e in s1.tree.entries]
    assert ids == [e.id for e in s2.tree.entries]
    assert s1.version == 1
    comp = s1.tree.entries[2].raw
    assert comp["firstKeptEntryId"] == ids[1] and "firstKeptEntryIndex" not in comp
    assert s1.tree.entries[1].raw["message"]["role"] == "custom"
    assert [e.parent_id for e in s1.tree.entries] == [None, ids[0], ids[1]]
