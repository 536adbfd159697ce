"""The last entries of a file, read from its end: complete lines only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pitui.core.regular_file import NotRegularFile
from pitui.core.session import tail


def _line(entry_id: str, parent: str | None, text: str = "hi") -> bytes:
    entry = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
             "message": {"role": "user", "content": text}}  # fmt: skip
    return json.dumps(entry).encode() + b"\n"


def test_complete_lines_only_and_no_header(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    header = b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n'
    path.write_bytes(header + _line("a", None) + _line("b", "a") + b'{"type":"mess')
    assert [entry.id for entry, _ in tail.tail_entries(path)] == ["a", "b"]


def test_a_line_cut_by_the_window_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_line("a", None, "x" * 300) + _line("b", "a") + _line("c", "b"))
    monkeypatch.setattr(tail, "TAIL_BYTES", len(_line("b", "a")) * 2 + 10)
    assert [entry.id for entry, _ in tail.tail_entries(path)] == ["b", "c"]
    assert [entry.id for entry, _ in tail.tail_entries(path, limit=1)] == ["c"]


def test_only_regular_files(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile):
        tail.tail_entries(fifo)
