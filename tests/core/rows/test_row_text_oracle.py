"""What a tree row says, and what search looks in, is what Pi's getEntryDisplayText and
getSearchableText give, run through the oracle on the
generated corpus and on entries shaped to find where Python and JavaScript differ: values
that are missing, null, numbers, booleans or objects where text is expected, text longer
than 200 UTF-16 units with characters outside the BMP, and JavaScript's rounding.

Two deliberate departures are left out: an entry type Pi does not know (Pi shows nothing,
pitui shows its type and text) and an entry on which Pi's code throws (pitui shows it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitui.core.rows.row_text import entry_display
from pitui.core.rows.rows import TreeRows
from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus

HOME = "/home/demo"
STAMP = "2026-01-01T00:00:00.000Z"
KNOWN_TYPES = {
    "message",
    "custom_message",
    "compaction",
    "branch_summary",
    "model_change",
    "thinking_level_change",
    "custom",
    "context_edit",
    "label",
    "session_info",
}
ODD_VALUES: list[Any] = [None, 5, 1.0, 2.5e-7, True, {"a": 1}, [1, "b"], "", "\ufeff", "x\ty\nz"]
LONG = "é😀" * 150 + "tail"  # 450 UTF-16 units


def odd_entries() -> list[dict[str, Any]]:
    """Raw entries that put odd values where Pi expects text or numbers."""
    out: list[dict[str, Any]] = []

    def message(role: str, **fields: Any) -> None:
        out.append({"type": "message", "message": {"role": role, **fields}})

    for value in ODD_VALUES:
        message("user", content=[{"type": "text", "text": value}])
        message("assistant", content=[{"type": "text", "text": value}, {"type": "text"}])
        message("assistant", content=[], stopReason="error", errorMessage=value)
        message("toolResult", toolCallId=f"missing-{value!r}", toolName=value, content=[])
        message("bashExecution", command=value)
        message(value if isinstance(value, str) else "custom", content="x")
        out.append({"type": "custom_message", "customType": value, "content": "c"})
        out.append({"type": "compaction", "summary": "s", "tokensBefore": value})
        out.append({"type": "branch_summary", "summary": value})
        out.append({"type": "model_change", "provider": "p", "modelId": value})
        out.append({"type": "thinking_level_change", "thinkingLevel": value})
        out.append({"type": "custom", "customType": value})
        out.append({"type": "context_edit", "targetId": value, "replacement": value})
        out.append({"type": "label", "targetId": "e0", "label": value})
        out.append({"type": "session_info", "name": value})
    for tokens in (2500, 3500, -2500, -2600, 1499.999, 1e25, "4200", " 12 "):
        out.append({"type": "compaction", "summary": "s", "tokensBefore": tokens})
    message("user", content=LONG)
    message("user", content=[{"type": "text", "text": LONG[:199]}, {"type": "text", "text": "😀!"}])
    message("assistant", content=LONG)
    message("assistant", content=[], stopReason="error", errorMessage=LONG)
    out.append(
        {"type": "custom_message", "customType": "k", "content": [{"type": "text", "text": 7}]}
    )
    call = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/home/demo/a"}}
    message("assistant", content=[call])
    message("toolResult", toolCallId="c1", toolName="read", content=[])
    message("toolResult", toolCallId="", toolName="", content=[])
    for missing in ("content", "role"):
        out.append(
            {"type": "message", "message": {"role": "user", "content": "x"} | {missing: None}}
        )
    out.append({"type": "message", "message": {"content": "no role"}})
    message("toolResult", toolCallId="no-such-call", content=[])
    message("assistant", content=[{"type": "toolCall", "id": "c2", "arguments": {"a": 1.0}}])
    message("toolResult", toolCallId="c2", content=[])
    for kind in sorted(KNOWN_TYPES - {"message"}):
        out.append({"type": kind})  # every field missing
    for index, label in enumerate([5, True, {"a": 1}, [1, "b"], 1.0, 0, [], "Mixed Case"]):
        out.append({"type": "label", "targetId": f"e{index + 1}", "label": label})
    chained = []
    for index, raw in enumerate(out):
        parent = f"e{index - 1}" if index else None
        chained.append(
            {"id": f"e{index}", "parentId": parent, "timestamp": "2026-01-01T00:00:00Z", **raw}
        )
    return chained


def write_session(path: Path, raws: list[dict[str, Any]]) -> Path:
    header = {"type": "session", "version": 3, "id": "s", "timestamp": STAMP, "cwd": "/w"}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *raws]))
    return path


def repeated_call_ids() -> list[dict[str, Any]]:
    """Two branches whose assistants both call `call_0` (ids numbered per turn): Pi names
    both results after the call it walks last, the branch without the leaf."""

    def line(eid: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "message",
            "id": eid,
            "parentId": parent,
            "timestamp": STAMP,
            "message": message,
        }

    def call(path: str) -> dict[str, Any]:
        block = {"type": "toolCall", "id": "call_0", "name": "read", "arguments": {"path": path}}
        return {"role": "assistant", "content": [block]}

    result = {"role": "toolResult", "toolCallId": "call_0", "toolName": "read", "content": []}
    return [
        line("u", None, {"role": "user", "content": "go"}),
        line("a1", "u", call("first.py")),
        line("r1", "a1", result),
        line("a2", "u", call("second.py")),
        line("r2", "a2", result),
    ]


def assert_rows_equal_pi(pi_oracle: Any, path: Path) -> int:
    """Rows in Pi's order, each saying what Pi's says; returns how many were compared."""
    pi = pi_oracle.request({"op": "treeRows", "file": str(path), "home": HOME})
    session = Session(path)
    rows = TreeRows(session.tree, "everything")
    if session.version == 1:  # Pi's migration on opening gives v1 entries random ids
        assert len(rows.rows) == len(pi)
    else:
        assert [row.entry.id for row in rows.rows] == [row["id"] for row in pi]
    rows.search("x")  # works out what search looks in, for every row
    compared = 0
    for row, theirs in zip(rows.rows, pi, strict=True):
        if row.entry.type not in KNOWN_TYPES:
            continue
        if isinstance(theirs["search"], str):
            assert row.search_text() == theirs["search"], row.entry.raw
        if isinstance(theirs["text"], str):
            tag, _, body, _ = entry_display(row.entry, row.entry.raw, rows.tool_calls)
            assert tag + body == theirs["text"], row.entry.raw
            compared += 1
    return compared


def test_rows_of_odd_values_equal_pi(
    pi_oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    path = write_session(tmp_path / "odd.jsonl", odd_entries())
    assert assert_rows_equal_pi(pi_oracle, path) > 140


def test_a_repeated_call_id_names_results_as_pi_does(
    pi_oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    path = write_session(tmp_path / "calls.jsonl", repeated_call_ids())
    assert assert_rows_equal_pi(pi_oracle, path) == 5
    rows = TreeRows(Session(path).tree, "everything")
    assert rows.tool_calls()["call_0"] == "[read: first.py]"


def test_rows_of_the_corpus_equal_pi(
    pi_oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    compared = 0
    for path in generate_corpus(tmp_path, seed=3, include_malformed=False):
        compared += assert_rows_equal_pi(pi_oracle, path)
    assert compared > 500
