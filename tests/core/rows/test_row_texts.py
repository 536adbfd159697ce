"""Row texts taken from each line as the session loads (`RowTexts`, `TextFlags`) are the
texts and flags the usual path works out from each line parsed whole; and `pitui tree`'s
lean layout (`printed.py`) prints the rows `TreeRows` lays out."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import NOT_SESSIONS, write_corpus

from pitui.core.rows.all_texts import RowTexts, read_all_texts
from pitui.core.rows.filters import EVERYTHING
from pitui.core.rows.printed import shown_rows, tree_text
from pitui.core.rows.row_entry import TextFlags
from pitui.core.rows.rows import FILTERS, TreeRows
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.entry import content_has_text
from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus, write_demo_store


@pytest.fixture(scope="module")
def session_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("sessions")
    files = sorted(write_demo_store(root / "demo").rglob("*.jsonl"))
    for seed in (0, 3):
        files += generate_corpus(root / f"corpus{seed}", seed=seed, include_malformed=True)
    hostile = write_corpus(root / "hostile")
    files += [path for name, path in sorted(hostile.items()) if name not in NOT_SESSIONS]
    sessions = []
    for path in files:
        try:
            Session(path)
        except Exception:  # not a session: `pitui tree` says so, no rows to compare
            continue
        sessions.append(path)
    assert len(sessions) > 30
    return sessions


def hooked(path: Path) -> tuple[Session, RowTexts]:
    texts = RowTexts()
    return Session(path, on_line=texts.take, decode=texts.decode), texts


def test_texts_taken_while_loading_equal_the_texts_of_lines_parsed_whole(
    session_files: list[Path],
) -> None:
    taken_somewhere = 0
    for path in session_files:
        session, texts = hooked(path)
        assistants = [e for e in session.tree.entries if e.role == "assistant"]
        taken_somewhere += sum(e.text_known for e in assistants)  # set by the hook, unread
        taken = texts.finish(session.tree, ToolCallMap())
        plain = Session(path)
        assert taken == read_all_texts(plain.tree, ToolCallMap()), path
        for entry, again in zip(session.tree.entries, plain.tree.entries, strict=True):
            assert entry.has_text == again.has_text, (path, entry)
    assert taken_somewhere > 100


def test_texts_taken_equal_each_row_worked_out_when_shown(session_files: list[Path]) -> None:
    for path in session_files:
        session, texts = hooked(path)
        taken = texts.finish(session.tree, ToolCallMap())
        rows = TreeRows(Session(path).tree, EVERYTHING)  # each row's text when first shown
        assert [taken[row.entry.index] for row in rows.rows] == [r.display() for r in rows.rows]


def test_text_flags_taken_while_loading_are_pi_has_text_content(
    session_files: list[Path],
) -> None:
    flagged = 0
    for path in session_files:
        flags = TextFlags()
        session = Session(path, on_line=flags.take, decode=flags.decode)
        for entry in session.tree.entries:
            if entry.role == "assistant" and entry.text_known:
                flagged += 1
                content = (entry.read_raw().get("message") or {}).get("content")
                assert entry.has_text == content_has_text(content), (path, entry)
    assert flagged > 100


@pytest.mark.parametrize("mode", FILTERS)
def test_printed_rows_are_tree_rows(session_files: list[Path], mode: str) -> None:
    for path in session_files:
        session, texts = hooked(path)
        rows = TreeRows(Session(path).tree, mode)
        expected = "".join(row.plain() + "\n" for row in rows.rows) or (
            f"No entries found [{mode}]\n"
        )
        assert tree_text(session.tree, mode, texts) == expected, path
        every = TreeRows(session.tree, EVERYTHING)
        shown = shown_rows(session.tree, EVERYTHING)
        assert [p.depth for p in shown.places] == [row.depth for row in every.rows], path
