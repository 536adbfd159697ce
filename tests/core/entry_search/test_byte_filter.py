"""The byte filter passes over a file only when its bytes cannot spell a query's words; the
entry search's own tests (`test_entry_search.py`) check that it never loses a match."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.core.entry_search import byte_filter
from pitui.core.entry_search.byte_filter import ByteFilter
from pitui.core.entry_search.matcher import EntryMatcher


def _filter(query: str) -> ByteFilter:
    found = ByteFilter.of(EntryMatcher.parse(query).needles)
    assert found is not None
    return found


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.jsonl"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_rules_out_a_file_without_the_word(tmp_path: Path) -> None:
    path = _file(tmp_path, '{"content":"a parser, a cache_2471 and \\\\u001b[31m colour"}\n')
    assert not _filter("cache_2472").may_match(path)
    assert not _filter("parser zzqx").may_match(path)  # every word must be there
    assert _filter("parser").may_match(path)
    assert _filter("CACHE_2471 PARSER").may_match(path)


def test_any_ascii_case_is_a_spelling(tmp_path: Path) -> None:
    path = _file(tmp_path, '{"content":"The CaChE_2472 WAS there"}\n')
    assert _filter("cache_2472").may_match(path)
    assert _filter("was").may_match(path)


def test_long_words_are_looked_for_by_a_window(tmp_path: Path) -> None:
    assert byte_filter._window("cache_2472") == "cache_2472"  # five letters
    assert byte_filter._window("refactoring") == "refact"  # at most six letters
    assert byte_filter._window("a-b-c-d-e-f-g-h") == "-b-c-d-e-f-g-"  # the longest
    assert len(byte_filter._spellings("cache_2472")) == 32
    path = _file(tmp_path, '{"content":"REFACTor only"}\n')
    assert _filter("refactoring").may_match(path)  # the window is there: parsed to be sure
    assert not _filter("unfactoring").may_match(path)


@pytest.mark.parametrize(
    "spelling",
    ["\\\\u0063ache_2472", "\\\\u0043ACHE_2472", "cache_247\\\\u0032", "\\\\u0130", "\\u0130"],
)
def test_other_spellings_keep_a_file(tmp_path: Path, spelling: str) -> None:
    """An escaped ASCII character, or a character whose lowercase holds ASCII (İ, K), may
    spell the word: such a file is parsed."""
    path = _file(tmp_path, '{"content":"' + spelling + '"}\n')
    assert _filter("cache_2472").may_match(path)


def test_a_word_across_two_chunks_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(byte_filter, "_CHUNK", 64)
    monkeypatch.setattr(byte_filter, "_PEEK", 16)
    for start in range(50, 70):
        path = _file(tmp_path, "x" * start + "cache_2472" + "y" * 200)
        assert _filter("cache_2472").may_match(path), start
    path = _file(tmp_path, "x" * 60 + "cache_2471" + "y" * 200)
    assert not _filter("cache_2472").may_match(path)


def test_a_word_across_the_peeks_end_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first bytes (the peek) the search goes on from just before their end."""
    monkeypatch.setattr(byte_filter, "_PEEK", 16)
    for start in range(0, 30):
        path = _file(tmp_path, "x" * start + "cache_2472" + "y" * 100)
        assert _filter("cache_2472").may_match(path), start


def test_unreadable_or_odd_files_are_left_to_the_search(tmp_path: Path) -> None:
    assert _filter("parser").may_match(str(tmp_path / "missing.jsonl"))
    assert _filter("parser").may_match(str(tmp_path))  # a folder: the search says why


def test_queries_without_plain_words_have_no_filter() -> None:
    for query in ("re:pars(er|ing)", "café", "cwd:/c", "label:x"):
        assert ByteFilter.of(EntryMatcher.parse(query).needles) is None


def test_passing_keeps_the_files_that_may_match_in_their_order(tmp_path: Path) -> None:
    """Blocks of files are read by two threads; what passes comes out in the given order."""
    paths = []
    for i in range(600):  # more than two blocks
        path = tmp_path / f"{i:03}.jsonl"
        path.write_text('{"content":"' + ("parser" if i % 7 == 3 else "lexer") + '"}\n')
        paths.append(str(path))
    passed = list(_filter("parser").passing(reversed(paths), str))
    assert passed == [p for p in reversed(paths) if int(Path(p).stem) % 7 == 3]
    assert list(_filter("zzqx").passing(paths, str)) == []


def test_an_other_spelling_across_two_chunks_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A short word's window is shorter than `\\u0130`: the chunks overlap by the longer."""
    monkeypatch.setattr(byte_filter, "_CHUNK", 64)
    monkeypatch.setattr(byte_filter, "_PEEK", 16)
    for start in range(56, 66):
        path = _file(tmp_path, "x" * start + "\\u0130" + "y" * 200)
        assert _filter("iq").may_match(path), start
