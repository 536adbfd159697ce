"""Search over tree rows: what it keeps between searches (each row's text, the last
matches) never changes the answer, whatever the rows went through meanwhile; and a message
line read only for search says what its full parse says."""

from __future__ import annotations

import json
from typing import Any

from entry_builders import entries, msg, ts

from pitui.core.rows.row_text import searchable_text
from pitui.core.rows.rows import TreeRows
from pitui.core.rows.search_line import line_searchable_text
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree

SENTENCES = ["retry the fetch", "a timeout here", "time out again", "no retry", "cache hit"]


def fresh_search(rows: TreeRows, text: str) -> list[int]:
    """The rows matching `text` by Pi's rule, found anew (nothing kept)."""
    tokens = text.lower().split()
    return [
        i
        for i, row in enumerate(rows.rows)
        if tokens and all(token in row.search_text() for token in tokens)
    ]


def test_kept_texts_and_matches_follow_appends_folds_labels_and_filters() -> None:
    raws = [msg("r", None, text="root", n=0), msg("x", "r", text="side: timeout", n=1)]
    raws += [
        msg(f"e{i}", "r" if i == 0 else f"e{i - 1}", text=SENTENCES[i % 5], n=i + 2)
        for i in range(10)
    ]
    tree = SessionTree(entries(raws))
    rows = TreeRows(tree)
    queries = ["t", "ti", "time", "time o", "time ou", "timeout", "timeou", "re", "retry f"]
    steps: list[Any] = [
        lambda n: append(tree, rows, msg(f"n{n}", tree.leaf.id, text="timeout retry", n=99)),
        lambda n: rows.fold("e0"),
        lambda n: rows.unfold("e0"),
        lambda n: append(tree, rows, label(f"l{n}", tree.leaf.id, "e3", "Time Out Retry")),
        lambda n: rows.set_filter("all"),
        lambda n: rows.set_filter("user-only"),
    ]
    for n, step in enumerate(steps):
        for query in queries:
            assert rows.search(query) == fresh_search(rows, query), (n, query)
        step(n)
    for query in queries:
        assert rows.search(query) == fresh_search(rows, query), query


def test_a_row_appended_after_a_search_is_found_by_the_next() -> None:
    tree = SessionTree(entries([msg("a", None, text="timeout one", n=0)]))
    rows = TreeRows(tree)
    assert rows.search("time") == [0]
    append(tree, rows, msg("b", "a", text="timeout two", n=1))
    assert rows.search("timeo") == [0, 1]


def test_a_label_given_after_a_search_is_found_by_the_next() -> None:
    tree = SessionTree(entries([msg("a", None, text="one", n=0), msg("b", "a", text="two")]))
    rows = TreeRows(tree)
    assert rows.search("o") == [0, 1]
    append(tree, rows, label("l", "b", "b", "milestone"))
    assert rows.search("o mile") == [1]


def append(tree: SessionTree, rows: TreeRows, raw: dict[str, Any]) -> None:
    batch = entries([raw], len(tree.entries))
    tree.extend(batch)
    rows.extend(batch)


def label(eid: str, parent: str, target: str, text: str) -> dict[str, Any]:
    return {
        "type": "label",
        "id": eid,
        "parentId": parent,
        "timestamp": ts(50),
        "targetId": target,
        "label": text,
    }


ODD_MESSAGES: list[Any] = [
    {"role": "user", "content": "plain"},
    {"role": "user", "content": ""},
    {"role": "user", "content": None},
    {"role": "user"},
    {"content": "no role"},
    {"role": 12, "content": [{"type": "text", "text": 7}, {"type": "text"}]},
    {"role": True, "content": [{"type": "text", "text": None}, {"type": "image"}]},
    {"role": ["a", 1, None], "content": [{"type": "text", "text": {"k": 1}}]},
    {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, "loose", 3]},
    {"role": "assistant", "content": {"type": "text", "text": "object content"}},
    {"role": "assistant", "content": 42},
    {"role": "bashExecution", "command": "ls -la", "content": "out"},
    {"role": "bashExecution", "command": ["ls", 1], "content": ""},
    {"role": "bashExecution", "command": 0},
    {"role": "user", "content": "😀" * 150 + "x" * 100},
    {"role": "user", "content": [{"type": "text", "text": "é" * 300}]},
]
ODD_LINES = [
    b'{"type":"message","id":"m","parentId":null,"message":{"role":"user","content":"\\ud800 lone"}}',
    b'{"type":"message","id":"m","parentId":null,"message":{"role":"user","content":"bad \xff utf8"}}',
    b'{"type":"message","id":"m","parentId":null,"message":{"role":1e400,"content":"big"}}',
    b'{"type":"message","id":"m","parentId":null,"message":{"role":123456789012345678901234567890}}',
    b'{"type":"message","id":"m","parentId":null,"message":{"role":"a","role":"b","content":"x"}}',
    b'{"type":"message","id":"m","id":"m","message":{"content":[{"type":"text","text":"1","text":"2"}]}}',
    b'{"type":"message","id":"m","parentId":null,"message":null}',
    b'{"type":"message","id":"m","parentId":null,"message":"a string"}',
    b'{"type":"message","id":"other","parentId":null,"message":{"role":"user","content":"moved"}}',
    b'{"type":"label","id":"m","parentId":null,"message":{"role":"user","content":"retyped"}}',
    b'{"type":"message","id":"m","message":{"role":"user","content":'
    + b"[" * 5000
    + b"]" * 5000
    + b"}}",
    b"not json",
    b"",
]


def test_a_line_read_for_search_says_what_its_full_parse_says() -> None:
    lines = [
        json.dumps({"type": "message", "id": "m", "parentId": None, "message": m}).encode()
        for m in ODD_MESSAGES
    ] + ODD_LINES
    entry = Entry.from_raw({"type": "message", "id": "m", "parentId": None}, 2, 0, 0)
    light = 0
    for line in lines:
        text = line_searchable_text(entry, line)
        if text is not None:
            light += 1
            assert text == searchable_text(entry, entry.raw_of_line(line)), line[:80]
    assert light >= len(ODD_MESSAGES)
