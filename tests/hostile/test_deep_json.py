"""A line nested deeper than orjson's / the stdlib's limits: Pi's JSON.parse reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reading_runner import run_commands

from pitui.core.format.jsonline import MAX_NESTING, NestedTooDeeply, dumps
from pitui.core.session.session import Session


def _message(eid: str, parent: str | None, text: str) -> str:
    return json.dumps(
        {
            "type": "message",
            "id": eid,
            "parentId": parent,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": text, "timestamp": 1},
        }
    )


def test_deeply_nested_entry_is_kept_as_pi_does(tmp_path: Path) -> None:
    header = {"type": "session", "version": 3, "id": "deep", "timestamp": "2025-01-01T00:00:00.000Z",
              "cwd": "/tmp"}  # fmt: skip
    deep = (
        '{"type":"custom","id":"d","parentId":"m1","timestamp":"2025-01-01T00:00:02.000Z",'
        '"customType":"x","data":' + "[" * 3000 + "]" * 3000 + "}"
    )
    path = tmp_path / "deep.jsonl"
    lines = [json.dumps(header), _message("m1", None, "first"), deep, _message("m2", "d", "second")]
    path.write_text("\n".join(lines) + "\n")
    session = Session(path)
    assert [e.id for e in session.tree.entries] == ["m1", "d", "m2"]
    assert len(session.context().messages) == 2


KEY = "ghp_" + "Z8kQ2mW7xR4tY9bV3nL6pD1sF5hJ0cG2aE7u"  # the shape of a GitHub token


def _deep_session(path: Path, depth: int) -> Path:
    """A tool result whose `details` nests `depth` arrays around a string holding a token:
    deeper than orjson (1,024) and the default recursion limit read or write."""
    header = {"type": "session", "version": 3, "id": "deep", "timestamp": "2025-01-01T00:00:00.000Z",
              "cwd": "/tmp"}  # fmt: skip
    deep = (
        '{"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
        '"message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":'
        '[{"type":"text","text":"ok"}],"isError":false,"timestamp":1,"details":'
        + "[" * depth
        + json.dumps(f"token {KEY}")
        + "]" * depth
        + "}}"
    )
    path.write_text(json.dumps(header) + "\n" + deep + "\n")
    return path


def test_deep_entries_are_exported_redacted_and_scanned(tmp_path: Path) -> None:
    store, out = tmp_path / "store", tmp_path / "out"
    store.mkdir()
    out.mkdir()
    path = _deep_session(store / "deep.jsonl", 15_000)
    source_line = path.read_text().splitlines()[1]
    runs = [
        ["export", str(path), "--format", "jsonl", "-o", str(out / "plain.jsonl")],
        ["export", str(path), "--format", "jsonl", "--redact", "-o", str(out / "red.jsonl")],
        ["export", str(path), "--redact", "-o", str(out / "red.md")],
        ["secrets", "--all", "--session-dir", str(store), "--no-cache", "--json"],
    ]
    results = run_commands(runs)
    for code, _, err in results:
        assert code == 0 and "Traceback" not in err, err
    assert (out / "plain.jsonl").read_text().splitlines()[1] == source_line
    redacted = (out / "red.jsonl").read_text()
    assert KEY not in redacted and "[REDACTED:" in redacted
    assert KEY not in (out / "red.md").read_text()
    [found] = json.loads(results[3][1])["sessions"]
    assert [(hit["id"], hit["line"], hit["kind"]) for hit in found["secrets"]] == [
        ("m1", 2, "github")
    ]


def test_a_value_deeper_than_any_line_read_is_one_clear_error() -> None:
    value: list[object] = []
    for _ in range(2 * MAX_NESTING):
        value = [value]
    with pytest.raises(NestedTooDeeply, match="nested more than 20,000 levels deep"):
        dumps(value)


def test_a_header_and_entries_nested_1500_deep_are_read_by_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON.parse reads a header with a value nested 1,500 levels (past msgspec's and
    orjson's limits), and tool-call arguments as deep: the commands read the session (its
    usage counted), never a RecursionError traceback."""
    deep = "[" * 1500 + "]" * 1500
    header = (
        '{"type":"session","version":3,"id":"deep-header","timestamp":"2025-01-01T00:00:00.000Z",'
        '"cwd":"/tmp","extra":' + deep + "}"
    )
    reply = (
        '{"type":"message","id":"a1","parentId":"m1","timestamp":"2025-01-01T00:00:02.000Z",'
        '"message":{"role":"assistant","content":[{"type":"text","text":"deep reply"},'
        '{"type":"toolCall","id":"c1","name":"bash","arguments":{"a":' + deep + "}}],"
        '"api":"anthropic-messages","provider":"p","model":"m","usage":{"input":3,"output":4,"cacheRead":0,"cacheWrite":0,'
        '"totalTokens":7,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.5}},'
        '"stopReason":"toolUse","timestamp":2,"more":' + deep + "}}"
    )
    folder = tmp_path / "agent" / "sessions" / "--tmp--"
    folder.mkdir(parents=True)
    path = folder / "2025-01-01T00-00-00-000Z_deep-header.jsonl"
    path.write_text("\n".join([header, _message("m1", None, "deep question"), reply]) + "\n")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    out.mkdir()
    runs = [
        ["stats", "--all", "--json"],
        ["list", "--all", "--json"],
        ["tree", str(path)],
        ["check", str(path)],
        ["context", str(path)],
        ["export", str(path), "-o", str(out / "deep.md")],
        ["export", str(path), "--format", "html", "-o", str(out / "deep.html")],
    ]
    results = run_commands(runs)
    for (code, out_text, err), args in zip(results, runs, strict=True):
        assert code == 0 and "Traceback" not in err and "RecursionError" not in err, (
            args,
            out_text,
            err,
        )
    stats = json.loads(results[0][1])["total"]
    assert stats["sessions"] == 1 and stats["assistantMessages"] == 1 and stats["cost"] == 0.5
    [listed] = json.loads(results[1][1])
    assert listed["messageCount"] == 2
    assert "deep question" in results[2][1] and "deep reply" in results[2][1]
    assert "[tool call bash]" in results[4][1]  # the arguments shown, compact
    assert "deep reply" in (out / "deep.md").read_text()
