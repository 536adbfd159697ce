"""Reading many entries' lines again at once gives what reading each alone gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from entry_builders import header

from pitui.core.rows import rows as rows_module
from pitui.core.rows.rows import TreeRows
from pitui.core.session import prefetch
from pitui.core.session.entry import Entry, content_has_text
from pitui.core.session.line_facts import LineFacts, line_facts
from pitui.core.session.prefetch import prefetch_raw, prefetch_text_flags
from pitui.core.session.reader import SessionReader
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree

HEADER = header()


def assistant(n: int, content: Any, size: int = 0) -> dict[str, Any]:
    return {
        "type": "message",
        "id": f"e{n}",
        "parentId": f"e{n - 1}" if n else None,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "assistant", "content": content, "pad": "x" * size},
    }


CONTENTS = [
    [{"type": "text", "text": "hello"}],
    [{"type": "text", "text": " \n\t"}],
    [{"type": "toolCall", "id": "t", "name": "bash", "arguments": {}}],
    "plain string",
    "   ",
    [{"type": "text", "text": 'caf\u00e9 \\u escaped " quote'}],
    [{"type": "text", "text": "\u2003"}],  # a Unicode space only: blank
    [{"type": "text", "text": 5}],  # not a string: no text
    None,
    [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "ok"}],
]


def write_session(path: Path, sizes: list[int]) -> list[dict[str, Any]]:
    raws = [assistant(n, CONTENTS[n % len(CONTENTS)], size) for n, size in enumerate(sizes)]
    text = "".join(json.dumps(r) + "\n" for r in [HEADER, *raws])
    path.write_text(text)
    return raws


def test_prefetched_lines_equal_the_file_near_and_far_apart(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(prefetch, "GAP", 1000)  # some neighbours are too far to share a read
    monkeypatch.setattr(prefetch, "_SLACK", 100)  # and some lines end past the slack
    sizes = [0, 10, 5000, 0, 200_000, 30, 0, 2000, 1, 0, 70_000, 0]
    raws = write_session(tmp_path / "s.jsonl", sizes)
    entries = SessionReader(tmp_path / "s.jsonl").read().entries
    picked = entries[::2][::-1] + entries[1::2]  # out of order, every entry once
    prefetch_raw(picked)
    assert all(e.raw_loaded for e in entries)
    assert [e.raw for e in entries] == raws


def test_text_flags_from_bytes_equal_pi_test_on_parsed_content(tmp_path: Path) -> None:
    raws = write_session(tmp_path / "s.jsonl", [0] * 30)
    entries = SessionReader(tmp_path / "s.jsonl").read().entries
    prefetch_text_flags(entries)
    flags = [e.has_text for e in entries]
    expected = [content_has_text(r["message"]["content"]) for r in raws]
    assert flags == expected and True in flags and False in flags


def test_tool_calls_and_text_read_from_line_bytes() -> None:
    call = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/a"}}
    text = {"type": "text", "text": " \u00a0ok"}
    line = json.dumps({"id": "e1", "message": {"role": "assistant", "content": [call, text]}})
    facts = line_facts(line.encode(), "e1")
    assert facts is not None and facts.has_text
    assert facts.tool_calls == [("c1", "read", {"path": "/a"})]
    assert line_facts(line.encode(), "other") is None  # the line is not that entry
    blank = json.dumps({"id": "e1", "message": {"content": [call, {"type": "text", "text": " "}]}})
    assert line_facts(blank.encode(), "e1") == LineFacts(False, [("c1", "read", {"path": "/a"})])
    text_only = json.dumps({"id": "e1", "message": {"content": "just text"}}).encode()
    assert line_facts(text_only, "e1") == LineFacts(True, [])
    odd = json.dumps({"id": "e1", "message": {"content": [1, "x"]}}).encode()
    assert line_facts(odd, "e1") is None  # the caller parses it whole


def test_tree_search_and_tool_names_keep_no_parsed_lines(tmp_path: Path) -> None:
    write_session(tmp_path / "s.jsonl", [0] * 30)
    session = Session(tmp_path / "s.jsonl")
    rows = TreeRows(session.tree, "all")
    eager = TreeRows(
        SessionTree(
            Entry.from_raw(e.raw, e.line, e.offset, e.index)
            for e in Session(tmp_path / "s.jsonl").tree.entries
        ),
        "all",
    )
    assert rows.search("hello") == eager.search("hello") != []
    assert [r.plain() for r in rows.rows] == [r.plain() for r in eager.rows]
    assert not any(e.raw_loaded for e in session.tree.entries)


def test_tool_names_follow_appends_and_survive_filter_changes(
    tmp_path: Path, monkeypatch: Any
) -> None:
    path = tmp_path / "s.jsonl"
    write_session(path, [0] * 3)
    session = Session(path)
    rows = TreeRows(session.tree, "all")
    call = {"type": "toolCall", "id": "late", "name": "read", "arguments": {"path": "notes.md"}}
    result = {
        "type": "message",
        "id": "e4",
        "parentId": "e3",
        "timestamp": "2025-01-01T00:00:02.000Z",
        "message": {"role": "toolResult", "toolCallId": "late", "toolName": "read", "content": []},
    }
    with path.open("a") as handle:
        handle.write(json.dumps(assistant(3, [call])) + "\n" + json.dumps(result) + "\n")
    rows.extend(session.refresh().entries)
    row = rows.row_of("e4")
    assert row is not None and "[read: notes.md]" in row.plain()

    read_again: list[Entry] = []
    real_each_line = rows_module.each_line

    def counting_each_line(entries: Any) -> Any:
        entries = list(entries)
        read_again.extend(entries)
        return real_each_line(entries)

    monkeypatch.setattr(rows_module, "each_line", counting_each_line)
    for mode in ("default", "no-tools", "all"):
        rows.set_filter(mode)
    assert rows.tool_calls()["late"] == "[read: notes.md]" and read_again == []
