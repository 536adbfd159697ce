"""Session size by kind (every byte once), largest entries, store sizes per folder."""

from __future__ import annotations

import json
from pathlib import Path

from usage_store import build_store

from pitui.core.usage import sizes
from pitui.core.usage.sizes import session_size, store_sizes
from pitui.demo.generate import png_base64


def _line(entry: dict) -> str:
    return json.dumps(entry, separators=(",", ":")) + "\n"


def test_kinds_add_up_to_the_file_and_name_what_they_hold(tmp_path: Path) -> None:
    image = {"type": "image", "data": png_base64(64, 64) * 50, "mimeType": "image/png"}
    lines = [
        {"type": "session", "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/x"},
        {
            "type": "message",
            "id": "u1",
            "parentId": None,
            "timestamp": "t",
            "message": {"role": "user", "content": [{"type": "text", "text": "hi " * 100}, image]},
        },
        {
            "type": "message",
            "id": "a1",
            "parentId": "u1",
            "timestamp": "t",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm " * 300},
                    {"type": "text", "text": "ok"},
                    {"type": "toolCall", "id": "c", "name": "read", "arguments": {"path": "a"}},
                ],
            },
        },
        {
            "type": "message",
            "id": "r1",
            "parentId": "a1",
            "timestamp": "t",
            "message": {
                "role": "toolResult",
                "toolName": "read",
                "toolCallId": "c",
                "content": [{"type": "text", "text": "x" * 5000}],
                "isError": False,
            },
        },
        {
            "type": "compaction",
            "id": "c1",
            "parentId": "r1",
            "timestamp": "t",
            "summary": "s" * 700,
            "firstKeptEntryId": "r1",
            "tokensBefore": 1,
        },
        {"type": "custom", "id": "k1", "parentId": "c1", "timestamp": "t", "data": "d" * 900},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(_line(e) for e in lines) + 'not json\n{"partial', encoding="utf-8")
    result = session_size(str(path), top=3)
    assert sum(result.kinds.values()) == path.stat().st_size == result.size
    assert result.kinds[sizes.IMAGES] >= len(image["data"])
    assert result.kinds[sizes.THINKING] >= 1200
    assert result.kinds[sizes.TOOL_RESULT + "read"] >= 5000
    assert result.kinds[sizes.SUMMARIES] >= 700
    assert result.kinds[sizes.CUSTOM] >= 900
    assert result.kinds[sizes.USER_TEXT] >= 300
    assert result.kinds[sizes.TOOL_CALLS] > 0 and result.kinds[sizes.ASSISTANT_TEXT] > 0
    header_and_junk = len(_line(lines[0])) + len('not json\n{"partial')
    assert result.kinds["metadata and other entries"] > header_and_junk  # said what it holds
    assert [e.id for e in result.largest] == ["u1", "r1", "a1"]
    assert [e.bytes for e in result.largest] == sorted(
        (e.bytes for e in result.largest), reverse=True
    )
    assert result.largest[1].kind == "toolResult read" and result.largest[1].line == 4


def test_store_sizes_per_folder(tmp_path: Path) -> None:
    paths = build_store(tmp_path)
    result = store_sizes([str(p) for p in paths])
    assert result.total == sum(p.stat().st_size for p in paths)
    assert [s for _, s in result.sessions] == sorted(
        (p.stat().st_size for p in paths), reverse=True
    )
    folders = {f: (n, b) for f, n, b in result.folders}
    for folder in {p.parent for p in paths}:
        mine = [p for p in paths if p.parent == folder]
        assert folders[str(folder)] == (len(mine), sum(p.stat().st_size for p in mine))


def test_a_line_orjson_refuses_counts_as_the_entry_it_is(tmp_path: Path) -> None:
    """A line holding an integer of 4,401 digits (JSON.parse: Infinity) or a lone surrogate
    is read as JSON.parse reads it: its bytes went to "metadata and other entries" and its
    entry was missing from the largest."""
    huge = "1" + "0" * 4400
    header = {"type": "session", "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/x"}
    user = {"type": "message", "id": "u1", "parentId": None, "timestamp": "t"}
    path = tmp_path / "s.jsonl"
    path.write_text(
        _line(header)
        + _line(user)[:-2]
        + ',"message":{"role":"user","content":[{"type":"text","text":"big"}],"n":'
        + huge
        + "}}\n"
        + '{"type":"message","id":"u2","parentId":"u1","timestamp":"t","message":'
        + '{"role":"user","content":[{"type":"text","text":"cut \\ud83d"}]}}\n',
        encoding="utf-8",
    )
    result = session_size(str(path), top=3)
    assert [(e.id, e.kind) for e in result.largest] == [
        ("u1", "user"),
        ("u2", "user"),
        ("s", "session"),
    ]
    assert result.largest[1].text == "cut \ufffd"
    assert result.kinds[sizes.USER_TEXT] > 4400
    assert result.kinds[sizes.OTHER] == len(_line(header))
    assert sum(result.kinds.values()) == path.stat().st_size
