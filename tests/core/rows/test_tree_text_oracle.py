"""What the tree shows of a message is what Pi's tree selector shows: which assistant
messages count as having text (hasTextContent), and how a tool call is named
(formatToolCall), checked against Pi's own methods through the oracle."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pitui.core.rows.row_text import tool_call_texts
from pitui.core.session.entry import content_has_text
from pitui.core.session.line_facts import line_facts

HOME = "/home/demo"
BLANKS = ["", " ", "\t\n", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u2028", "\u200b", "\x1f"]
BLANKS += ["\x1c\x1d\x1e", "\x85", " \ufeff x ", "\u180e"]
CONTENTS: list[Any] = [
    *BLANKS,
    *[[{"type": "text", "text": text}] for text in BLANKS],
    [{"type": "text"}],
    [{"type": "thinking", "thinking": "x"}, {"type": "text", "text": "\ufeffok"}],
    None,
    {"type": "text", "text": "not a list"},
]
NUMBERS = ["12", " 12 ", "0x10", "1_000", "\u0661\u0662", "\ufeff12", "1e3", ".5", "12.", "-0x10"]
NUMBERS += ["Infinity", "inf", "", " ", "0b11", "0o17", "+5", "1e400", "\x1f12", "12\u00a0"]
CALLS: list[tuple[Any, Any]] = [
    ("read", {"path": "/home/demo/src/app.py"}),
    ("read", {"path": "/home/demo/"}),
    ("read", {"path": "/home/demo"}),
    ("read", {"path": "/home/demo/a/../b.py"}),
    ("read", {"path": "/home/demox/c.py"}),
    ("read", {"path": "rel/d.py", "offset": 10, "limit": 5}),
    *[("read", {"path": "e.py", "offset": value}) for value in NUMBERS],
    *[("read", {"path": "e.py", "offset": 3, "limit": value}) for value in NUMBERS],
    ("read", {"path": "f.py", "offset": 1e21, "limit": 1e-7}),
    ("read", {"path": "f.py", "offset": 2, "limit": -1}),
    ("read", {"file_path": "/home/demo/g.py", "offset": None, "limit": None}),
    ("bash", {"command": "ls\t-la\n\ufeff  "}),
    ("bash", {"command": "x" * 60}),
    ("grep", {"pattern": "a|b", "path": "/home/demo/src"}),
    ("find", {"pattern": "*.py"}),
    ("ls", {}),
    ("custom_tool", {"ü": "\u2028", "n": 1.5}),
    ("write", "not an object"),
]


@pytest.fixture
def pi_tree_text(pi_oracle: Any) -> dict[str, Any]:
    request = {"op": "treeText", "home": HOME, "contents": CONTENTS, "calls": CALLS}
    return pi_oracle.request(request)  # type: ignore[no-any-return]


def test_text_flags_equal_pi(pi_tree_text: dict[str, Any]) -> None:
    assert [content_has_text(c) for c in CONTENTS] == pi_tree_text["hasText"]
    lines = [json.dumps({"id": "e", "message": {"content": c}}).encode() for c in CONTENTS]
    facts = [line_facts(line, "e") for line in lines]
    from_bytes = [
        f.has_text if f else content_has_text(c) for f, c in zip(facts, CONTENTS, strict=True)
    ]
    assert from_bytes == pi_tree_text["hasText"]


def test_a_text_block_whose_text_is_not_a_string_has_no_text() -> None:
    """Pi's hasTextContent throws here (`text.trim is not a function`); pitui says no text."""
    content = [{"type": "text", "text": 5}]
    line = json.dumps({"id": "e", "message": {"content": content}}).encode()
    assert content_has_text(content) is False
    facts = line_facts(line, "e")
    assert facts is not None and facts.has_text is False


def test_tool_call_names_equal_pi(
    pi_tree_text: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", HOME)
    calls = dict(tool_call_texts([(i, name, args) for i, (name, args) in enumerate(CALLS)]))
    assert [calls[i] for i in range(len(CALLS))] == pi_tree_text["calls"]
