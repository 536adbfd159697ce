"""The pydantic models: Pi's own output conforms; departures are named; nothing is rejected."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pi_written import write_pi_sessions

from pitui.core.format.models import KNOWN_ENTRY_TYPES, check_entry, check_header
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session


def test_generated_sessions_conform(tmp_path: Path) -> None:
    header, entries = generate_varied_session(random.Random(3))
    session = Session(write_session(tmp_path / "s.jsonl", header, entries))
    assert check_header(session.header) == []
    kinds = set()
    for entry in session.tree.entries:
        assert check_entry(entry.raw) == [], (entry.type, check_entry(entry.raw))
        kinds.add(entry.type)
    assert kinds >= KNOWN_ENTRY_TYPES


def test_departures_are_named_with_their_location() -> None:
    raw = {
        "type": "message",
        "id": 7,
        "parentId": None,
        "timestamp": "t",
        "message": {
            "role": "assistant",
            "content": [{"type": "text", "text": 3}, {"type": "toolCall"}],
        },
    }
    problems = check_entry(raw)
    assert "id: should be a valid string" in problems
    assert "message.content.0.text: should be a valid string" in problems
    assert any(p.startswith("message.content.1.name") for p in problems)
    assert check_entry(
        {
            "type": "message",
            "id": "a",
            "parentId": None,
            "timestamp": "t",
            "message": {"role": "user", "content": 5, "timestamp": 1},
        }
    ) == ["message.content: should be a valid string or a valid list"]


def test_unknown_types_roles_blocks_and_extra_fields_are_accepted() -> None:
    assert check_entry({"type": "hologram", "anything": 1}) == []
    message = {"role": "oracle", "content": [{"type": "smell"}]}
    assert (
        check_entry(
            {"type": "message", "id": "a", "parentId": None, "timestamp": "t", "message": message}
        )
        == []
    )
    label = {
        "type": "label",
        "id": "a",
        "parentId": None,
        "timestamp": "t",
        "targetId": "b",
        "future": {"x": 1},
    }
    assert check_entry(label) == []
    assert (
        check_header({"type": "session", "id": "x", "timestamp": "t", "cwd": "/", "provider": "p"})
        == []
    )


def test_message_pane_header_names_format_problems() -> None:
    from pitui.core.session.entry import Entry
    from pitui.ui.widgets.message_pane import header_text

    bad = Entry.from_raw(
        {
            "type": "model_change",
            "id": "a",
            "parentId": None,
            "timestamp": "t",
            "provider": "p",
            "modelId": 3,
        },
        2,
        0,
        0,
    )
    good = Entry.from_raw(
        {
            "type": "model_change",
            "id": "a",
            "parentId": None,
            "timestamp": "t",
            "provider": "p",
            "modelId": "m",
        },
        2,
        0,
        0,
    )
    assert "not in Pi's format: modelId: should be a valid string" in header_text(bad).plain
    assert "not in Pi's format" not in header_text(good).plain


@pytest.fixture(scope="module")
def pi_sessions(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_pi_sessions(tmp_path_factory.mktemp("pi-written"))


@pytest.mark.oracle
def test_sessions_pi_writes_conform(pi_sessions: list[Path]) -> None:
    """Every line Pi 1.6.0 writes (a real agent session) passes, including the usage cost's
    `totalFromProvider: false` and the system prompt's sections."""
    seen: set[str] = set()
    for path in pi_sessions:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert check_header(lines[0]) == []
        for number, raw in enumerate(lines[1:], 2):
            assert check_entry(raw) == [], (path.name, number, raw)
            message = raw.get("message") or raw.get("systemMessage") or {}
            seen.add(raw["type"] + "/" + str(message.get("role", "")))
            if message.get("usage", {}).get("cost", {}).get("totalFromProvider") is False:
                seen.add("totalFromProvider")
            if message.get("sections"):
                seen.add("sections")
    assert {"totalFromProvider", "sections", "compaction/system", "branch_summary/"} <= seen
    assert len(seen) >= 14, seen
