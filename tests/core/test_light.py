"""Lazy entries (fields decoded by msgspec, raw parsed on use) equal eagerly parsed ones."""

from __future__ import annotations

from pathlib import Path

from pitui.core.entry import Entry
from pitui.core.generate import generate_corpus
from pitui.core.reader import NotASession
from pitui.core.rows import FILTERS, TreeRows, _has_text
from pitui.core.session import Session
from pitui.core.tree import SessionTree

FIELDS = ("id", "parent_id", "type", "timestamp", "role", "stop_reason", "line", "offset", "index")


def sessions(root: Path) -> list[Session]:
    out = []
    for path in generate_corpus(root, seed=5):
        try:
            out.append(Session(path))
        except NotASession:
            continue
    return out


def eager_copy(entry: Entry) -> Entry:
    return Entry(entry.raw, entry.line, entry.offset, entry.index)


def test_lazy_fields_equal_eager_fields(tmp_path: Path) -> None:
    checked = 0
    for session in sessions(tmp_path):
        for entry in session.tree.entries:
            lazy_fields = [getattr(entry, f) for f in FIELDS]
            has_text = entry.has_text
            eager = eager_copy(entry)
            assert lazy_fields == [getattr(eager, f) for f in FIELDS]
            if entry.role == "assistant" and has_text is not None:
                assert has_text == _has_text(entry.raw["message"].get("content"))
                checked += 1
    assert checked > 20


def test_rows_from_lazy_entries_equal_rows_from_eager(tmp_path: Path) -> None:
    for session in sessions(tmp_path):
        eager_tree = SessionTree(eager_copy(e) for e in session.tree.entries)
        for mode in FILTERS:
            lazy_rows = [r.plain() for r in TreeRows(session.tree, mode).rows]
            assert lazy_rows == [r.plain() for r in TreeRows(eager_tree, mode).rows]
