"""A last line that is a whole JSON object but has no newline: Pi's loader reads it as an
entry, so context and tree show it; nothing is ever appended onto it; a live session
neither repeats it when the writer ends it nor keeps it when the writer extends it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from reading_runner import run_commands

from pitui.core.changes import writer
from pitui.core.errors import PituiError
from pitui.core.live.live import LiveStore

STAMP = "2026-01-01T00:00:0{}.000Z"


def message(n: int, parent: int | None, role: str = "user") -> dict[str, Any]:
    return {
        "type": "message",
        "id": f"m{n}",
        "parentId": None if parent is None else f"m{parent}",
        "timestamp": STAMP.format(n),
        "message": {"role": role, "content": f"text {n}", "timestamp": n},
    }


def write_unterminated(path: Path, count: int = 3) -> bytes:
    header = {"type": "session", "version": 3, "id": "s", "timestamp": STAMP.format(0), "cwd": "/"}
    lines = [header, *(message(n, n - 1 if n > 1 else None) for n in range(1, count + 1))]
    data = "\n".join(json.dumps(line) for line in lines).encode()  # no final newline
    path.write_bytes(data)
    return data


def test_context_and_tree_read_the_last_line_as_pi(tmp_path: Path, pi_oracle: Any) -> None:
    path = tmp_path / "s.jsonl"
    write_unterminated(path)
    file = str(path)
    runs = [["context", file, "--json"], ["tree", file, "--json"], ["tree", file]]
    (_, context, _), (_, tree, _), (_, text, _) = run_commands(runs)
    pi = pi_oracle.request({"op": "context", "file": file, "leafIndex": None, "leafId": None})
    assert json.loads(context)["messages"] == pi["messages"]
    assert [m["content"] for m in pi["messages"]] == ["text 1", "text 2", "text 3"]
    rows = pi_oracle.request({"op": "treeRows", "file": file, "home": str(tmp_path)})
    assert [e["id"] for e in json.loads(tree)] == [row["id"] for row in rows] == ["m1", "m2", "m3"]
    assert "text 3" in text


def test_a_write_ends_the_line_first_as_pi_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pi_oracle: Any
) -> None:
    """A whole entry left without its newline (a writer that stopped there): Pi ends the line
    when it opens the session, then appends. pitui refused every label and name, for ever,
    with "try again in a moment". Now it ends the line as Pi does, never glues onto it."""
    monkeypatch.setattr(writer, "PARTIAL_WAIT_SECONDS", 0.1)
    ours, pis = tmp_path / "ours.jsonl", tmp_path / "pis.jsonl"
    data = write_unterminated(ours)
    write_unterminated(pis)
    pi_oracle.request({"op": "open", "file": str(pis)})  # Pi's SessionManager.open
    assert pis.read_bytes() == data + b"\n"
    writer.set_label(ours, "m3", "mine", force=True)
    assert ours.read_bytes().startswith(data + b"\n{")
    label = json.loads(ours.read_bytes().splitlines()[-1])
    assert label["type"] == "label" and label["parentId"] == "m3"
    assert pi_oracle.request({"op": "open", "file": str(ours)})["labels"] == {"m3": "mine"}


def test_a_line_still_being_written_is_never_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "PARTIAL_WAIT_SECONDS", 0.1)
    path = tmp_path / "s.jsonl"
    data = write_unterminated(path) + b'\n{"type":"message","id":"m4","par'
    path.write_bytes(data)
    with pytest.raises(PituiError, match="incomplete line"):
        writer.set_label(path, "m3", "mine", force=True)
    with pytest.raises(PituiError, match="incomplete line"):
        writer.set_name(path, "a name", force=True)
    assert path.read_bytes() == data


def test_live_session_neither_repeats_nor_keeps_a_stale_entry(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    write_unterminated(path)
    store = LiveStore([tmp_path], watch=False)
    live = store.open(path)

    def ids() -> list[str]:
        return [e.id for e in live.session.tree.entries]

    assert ids() == ["m1", "m2", "m3"] and live.session.writing_in_progress
    with path.open("ab") as handle:  # the writer ends the line, then adds one
        handle.write(b"\n" + json.dumps(message(4, 3)).encode() + b"\n")
    store.poll_once()
    assert ids() == ["m1", "m2", "m3", "m4"] and not live.session.writing_in_progress
    with path.open("ab") as handle:  # a whole line again, then text glued onto it
        handle.write(json.dumps(message(5, 4)).encode())
    store.poll_once()
    assert ids() == ["m1", "m2", "m3", "m4", "m5"]
    with path.open("ab") as handle:
        handle.write(json.dumps(message(6, 4)).encode() + b"\n")
    store.poll_once()
    assert ids() == ["m1", "m2", "m3", "m4"]  # Pi skips the glued line too
    assert live.session.context().messages[-1]["content"] == "text 4"


def test_a_partial_line_left_long_ago_says_trying_again_will_not_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that crashed mid-line a year ago: "try again in a moment" promised what would
    never come."""
    monkeypatch.setattr(writer, "PARTIAL_WAIT_SECONDS", 0.1)
    path = tmp_path / "s.jsonl"
    data = write_unterminated(path) + b'\n{"type":"message","id":"m4","par'
    path.write_bytes(data)
    a_year_ago = time.time() - 365 * 86400
    os.utime(path, (a_year_ago, a_year_ago))
    with pytest.raises(PituiError) as raised:
        writer.set_label(path, "m3", "mine", force=True)
    said = str(raised.value)
    assert "unchanged for 365 days" in said and "try again" not in said
    assert path.read_bytes() == data
