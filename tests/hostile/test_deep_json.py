"""A line nested deeper than orjson's / the stdlib's limits: Pi's JSON.parse reads it."""

from __future__ import annotations

import json
from pathlib import Path

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
