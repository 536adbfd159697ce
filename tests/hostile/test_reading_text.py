"""Session text that JSON.parse accepts but a terminal must not receive as is: lone UTF-16
surrogates (a string cut inside an emoji, written by JSON.stringify as `\\ud83d`) and bidi
controls (trojan source). Every command carries them through: the JSON output as
JSON.stringify writes them, the text output shown as U+FFFD and `<U+202E>` markers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from reading_runner import run_commands

from pitui.core.rows.safe_text import escape_json_c1, one_line, visible

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
STAMP = "2026-01-01T00:00:00.000Z"


def message(eid: str, parent: str | None, role: str, content: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"role": role, "content": content, "timestamp": 1}
    if role == "assistant":
        body.update(api="x", provider="p", model="m", stopReason="stop")
    line = {"type": "message", "id": eid, "parentId": parent, "timestamp": STAMP}
    return {**line, "message": body}


def write_session(path: Path) -> Path:
    header = {"type": "session", "version": 3, "id": "s", "timestamp": STAMP, "cwd": "/w"}
    lines = [
        header,
        message("u1", None, "user", "cut \ud83d here, \udc00 there"),
        message("a1", "u1", "assistant", [{"type": "text", "text": f"bidi {BIDI} end"}]),
        {
            "type": "label",
            "id": "l1",
            "parentId": "a1",
            "timestamp": STAMP,
            "targetId": "u1",
            "label": "half \ud83d",
        },
    ]
    # Python's json.dumps writes a lone surrogate as the same escape as JSON.stringify
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="ascii")
    return path


def unsafe(text: str) -> list[str]:
    return [c for c in text if c in BIDI or 0xD800 <= ord(c) <= 0xDFFF]


def test_commands_carry_surrogates_and_show_bidi(tmp_path: Path, pi_oracle: Any) -> None:
    path = str(write_session(tmp_path / "s.jsonl"))
    runs = [
        ["context", path, "--json"],
        ["context", path],
        ["tree", path],
        ["tree", path, "--json"],
    ]
    results = run_commands(runs)
    for command, (code, out, err) in zip(runs, results, strict=True):
        assert code == 0 and err == "", (command, err)
        assert not unsafe(out), command
    context_json, context_text, tree_text, tree_json = (out for _, out, _ in results)
    # the JSON output: the escape JSON.stringify writes, and the very value Pi reads
    assert '"cut \\ud83d here, \\udc00 there"' in context_json
    pi = pi_oracle.request({"op": "context", "file": path, "leafIndex": None, "leafId": None})
    assert json.loads(context_json)["messages"] == pi["messages"]
    assert json.loads(tree_json)[0]["label"] == "half \ud83d"
    # text: U+FFFD for a lone half, a visible marker for each bidi control
    assert "cut \ufffd here, \ufffd there" in context_text
    assert "[half \ufffd] " in tree_text and "cut \ufffd here" in tree_text
    markers = "".join(f"<U+{ord(c):04X}>" for c in BIDI)
    assert f"bidi {markers} end" in context_text and f"bidi {markers} end" in tree_text


@pytest.mark.parametrize("show", [visible, one_line])
def test_safe_text_shows_bidi_and_surrogates(show: Any) -> None:
    assert show("a\u202eb\ud83dc\u2069") == "a<U+202E>b\ufffdc<U+2069>"
    assert show("emoji \U0001f600 and é stay") == "emoji \U0001f600 and é stay"


def test_json_escape_keeps_the_value() -> None:
    value = {"t": f"x\ud83d{BIDI}\x85"}
    escaped = escape_json_c1(json.dumps(value, ensure_ascii=False))
    assert not unsafe(escaped) and "\x85" not in escaped and "\\ud83d" in escaped
    assert json.loads(escaped) == value
