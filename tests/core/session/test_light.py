"""Lazy entries (fields decoded by msgspec, raw read again on use) equal eagerly parsed ones,
and text flags worked out from line bytes equal Pi's test on the parsed content."""

from __future__ import annotations

from pathlib import Path

from pitui.core.rows.rows import FILTERS, TreeRows
from pitui.core.session.entry import Entry, content_has_text
from pitui.core.session.prefetch import prefetch_raw, prefetch_text_flags
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree
from pitui.demo.generate import generate_corpus

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
    return Entry.from_raw(entry.raw, entry.line, entry.offset, entry.index)


def test_lazy_fields_equal_eager_fields(tmp_path: Path) -> None:
    checked = 0
    for session in sessions(tmp_path):
        entries = session.tree.entries
        prefetch_text_flags(entries)
        flags = [e.has_text for e in entries]
        assert not any(
            e.raw_loaded for e in entries if e.source is not None and e.type == "message"
        )
        for entry, has_text in zip(entries, flags, strict=True):
            lazy_fields = [getattr(entry, f) for f in FIELDS]
            eager = eager_copy(entry)
            assert lazy_fields == [getattr(eager, f) for f in FIELDS]
            if entry.role == "assistant":
                assert has_text is content_has_text(entry.raw["message"].get("content"))
                assert eager.has_text is has_text
                checked += 1
            else:
                assert has_text is None
    assert checked > 20


def test_prefetched_raw_equals_raw_read_alone(tmp_path: Path) -> None:
    for session in sessions(tmp_path):
        together = Session(session.path).tree.entries
        prefetch_raw(together)
        assert [e.raw for e in together] == [e.raw for e in session.tree.entries]


def test_rows_from_lazy_entries_equal_rows_from_eager(tmp_path: Path) -> None:
    for session in sessions(tmp_path):
        eager_tree = SessionTree(eager_copy(e) for e in session.tree.entries)
        for mode in FILTERS:
            lazy_rows = [r.plain() for r in TreeRows(session.tree, mode).rows]
            assert lazy_rows == [r.plain() for r in TreeRows(eager_tree, mode).rows]
