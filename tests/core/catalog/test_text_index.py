"""The trigram text index answers word and phrase searches: exactly what a full scan of
every text in memory answers, before, during and after the index is brought up to date."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from pitui.core.catalog.catalog import Catalog, SearchCancelled
from pitui.core.catalog.index import text_index
from pitui.core.catalog.search.search import Lookups, run_search
from pitui.core.catalog.summary import SessionSummary
from pitui.demo.generate import generate_corpus

QUERIES = [
    "parser", "the", "zzqx-nothing", "ab", "x", '"fix the"', '"the   parser"', "ΟΔΟΣ", "οδος",
    "İstanbul", "i̇stanbul", 'say "hi"', '"', "straße", "STRASSE", "ﬁle", "emoji 🎉", "a\x00b",
    "re:pars.r", "cwd:work parser", "word one", "ne wo", "ΣΑΣ", "km", "k_", "%", "_", "uo",
    "ß", "σα", "🎉", "i̇", "ﬁ", "Σ", '"y "', "\"", "w",
]  # fmt: skip
TEXTS = [
    "fix the parser now",
    "Talk about THE   Parser\tplease",
    "ΟΔΟΣ ΣΑΣ and İstanbul",
    'quote: say "hi" to straße ﬁle',
    "emoji 🎉 party",
    "word one",
    "new words",
    "Kelvin: \u212aM and 5%",  # the sign lowercases to k: "km" is in its lowercase
]


def _write(root: Path, name: str, texts: list[str]) -> Path:
    folder = root / "--work--"
    folder.mkdir(parents=True, exist_ok=True)
    ts = "2026-01-01T00:00:00.000Z"
    lines = [{"type": "session", "version": 3, "id": name, "timestamp": ts, "cwd": "/work"}]
    for i, text in enumerate(texts):
        message = {"role": "user" if i % 2 == 0 else "assistant", "content": text}
        lines.append(
            {
                "type": "message",
                "id": f"{i:08x}",
                "parentId": None,
                "timestamp": ts,
                "message": message,
            }
        )
    path = folder / f"{name}.jsonl"
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    return path


def _settled(paths: list[Path]) -> list[Path]:
    """Files last changed an hour ago (a text is indexed once its file settles)."""
    then = time.time() - 3600
    for path in paths:
        os.utime(path, (then, then))
    return paths


def _store(root: Path) -> list[Path]:
    paths = [_write(root, f"s{i}", [t, TEXTS[(i + 3) % len(TEXTS)]]) for i, t in enumerate(TEXTS)]
    return paths + generate_corpus(root, seed=4, count=10, include_malformed=False)


def _with_texts(catalog: Catalog) -> list[SessionSummary]:
    """The catalog's sessions, in its order, each holding its text in memory (the full scan
    every answer is compared with)."""
    texts = catalog.index.summaries()
    return [replace(s, all_messages_text=texts[s.path].all_messages_text, text_loaded=True)
            for s in catalog.sessions()]  # fmt: skip


def _answers(catalog: Catalog, with_index: bool) -> dict[str, list[str]]:
    sessions = catalog.sessions() if with_index else _with_texts(catalog)
    assert all(not s.text_loaded for s in catalog.sessions())  # no text kept in memory
    lookups = Lookups(
        catalog.index.tool_matches,
        lambda value, among: catalog.index.text_holding(value, among),
        catalog.index.texts_where,
    )
    found = {}
    for query in QUERIES:
        result = run_search(sessions, query, "relevance", False, lookups)
        found[query] = [row.summary.path for row in result.rows]
    return found


def _index_texts(catalog: Catalog) -> None:
    catalog.index.index_texts(threading.Event())
    assert not catalog.index.texts_left()


def _holding(catalog: Catalog, value: str) -> set[str]:
    return catalog.index.text_holding(value, {s.path for s in catalog.sessions()})


@pytest.mark.parametrize("cached", [True, False])
def test_indexed_search_equals_full_scan(tmp_path: Path, cached: bool) -> None:
    root = tmp_path / "sessions"
    _store(root)
    with Catalog(root, cache_dir=tmp_path / "cache", no_cache=not cached) as catalog:
        catalog.scan(tools="later")
        pending = _answers(catalog, with_index=True)  # nothing indexed yet: texts read
        _index_texts(catalog)
        indexed = _answers(catalog, with_index=True)
        assert pending == indexed == _answers(catalog, with_index=False)
        assert indexed["zzqx-nothing"] == [] and len(indexed["parser"]) >= 2
        assert _holding(catalog, "zzqx-nothing") == set()


def test_the_index_answers_without_reading_texts(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    _store(root)
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        read: list[int] = []
        among = {s.path for s in catalog.sessions()}
        rare = catalog.index.text_holding("quote: say", among, lambda: read.append(1))
        assert rare == {str(root / "--work--" / f"s{i}.jsonl") for i in (0, 3)}
        the = catalog.index.text_holding("the parser", among, lambda: read.append(1))
        assert {str(root / "--work--" / f"s{i}.jsonl") for i in (0, 1, 5)} <= the
        assert read == []  # both answered by the index alone
        for value in ("ab", "km", "5%", "k_", "k", "%"):  # no trigram: the trigrams they start
            short = catalog.index.text_holding(value, among, lambda: read.append(1))
            assert short == {
                s.path for s in _with_texts(catalog) if value in s.all_messages_text.lower()
            }
            assert read == []
        assert catalog.index.text_holding("km", among) == {
            str(root / "--work--" / f"s{i}.jsonl") for i in (4, 7)
        }


def test_one_or_two_letters_at_the_very_end_of_a_text_are_found(tmp_path: Path) -> None:
    """The end of a text starts no trigram of its own: the index's end mark makes it."""
    root = tmp_path / "sessions"
    _store(root)
    ends = {"e1": ["nothing here", "ends with qz"], "e2": ["q"], "e3": ["qz"], "e4": ["zq and"]}
    paths = {name: str(_write(root, name, texts)) for name, texts in ends.items()}
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        among = {s.path for s in catalog.sessions()}
        read: list[int] = []
        holding = {"qz": {"e1", "e3"}, "q": {"e1", "e2", "e3", "e4"}, "z": {"e1", "e3", "e4"}}
        for value in (*holding, "s", "e", "ds", "re"):
            found = catalog.index.text_holding(value, among, lambda: read.append(1))
            assert found == {
                s.path for s in _with_texts(catalog) if value in s.all_messages_text.lower()
            }
            assert {paths[name] for name in holding.get(value, ())} <= found
        assert read == []


def test_a_cancelled_search_stops(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    _store(root)
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan(tools="later")  # texts not indexed: the search reads them
        with pytest.raises(SearchCancelled):
            catalog.search("parser", cancelled=lambda: True)
        assert catalog.search("parser", cancelled=lambda: False).rows


def test_changed_and_deleted_files_leave_the_index(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = _store(root)
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert str(paths[0]) in _holding(catalog, "fix the parser")
        _write(root, "s0", ["something else entirely"])  # rewritten: the words are gone
        paths[1].unlink()
        catalog.update_paths([paths[0], paths[1]])
        _index_texts(catalog)
        assert str(paths[0]) not in _holding(catalog, "fix the parser")
        assert str(paths[1]) not in _holding(catalog, "parser")
        assert _holding(catalog, "something else") == {str(paths[0])}
        catalog.index.db.execute("INSERT INTO text_fts(text_fts) VALUES('integrity-check')")
        assert _answers(catalog, True) == _answers(catalog, False)
    with Catalog(root, cache_dir=cache) as again:  # the index persists, and still agrees
        again.scan()
        assert not again.index.texts_left()
        assert _answers(again, True) == _answers(again, False)


def test_appended_text_is_searchable_at_once_and_after_indexing(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = _store(root)
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
    line = {"type": "message", "id": "feedfeed", "parentId": None, "timestamp": "2026-02-01T00:00:00.000Z",
            "message": {"role": "user", "content": "brand new quokka"}}  # fmt: skip
    with paths[2].open("ab") as fh:
        fh.write(orjson.dumps(line) + b"\n")
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan(tools="later")
        assert catalog.index.texts_left()  # the grown file waits for the background pass
        found = [r.summary.path for r in catalog.search("quokka", sort="recent").rows]
        assert found == [str(paths[2])]
        _index_texts(catalog)
        assert [r.summary.path for r in catalog.search("quokka", sort="recent").rows] == found
        assert _answers(catalog, True) == _answers(catalog, False)


def test_a_text_being_written_is_indexed_once_its_file_settles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change of a large session Pi is writing would replace its whole text in the
    index: it is read as any text not indexed yet until its file has been left alone a while
    (here every file counts as large)."""
    monkeypatch.setattr(text_index, "SETTLE_MIN_BYTES", 0)
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = _settled(_store(root))
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
    line = {"type": "message", "id": "feedfeed", "parentId": None, "timestamp": "2026-02-01T00:00:00.000Z",
            "message": {"role": "user", "content": "brand new quokka"}}  # fmt: skip
    with paths[2].open("ab") as fh:
        fh.write(orjson.dumps(line) + b"\n")  # changed just now
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert not catalog.index.texts_left()  # nothing the pass may index yet
        among = {s.path for s in catalog.sessions()}
        read: list[int] = []
        assert catalog.index.text_holding("quokka", among, lambda: read.append(1)) == {
            str(paths[2])
        }
        assert read == [1]  # its text, read
        assert _answers(catalog, True) == _answers(catalog, False)
    _settled([paths[2]])
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        read.clear()
        among = {s.path for s in catalog.sessions()}
        assert catalog.index.text_holding("quokka", among, lambda: read.append(1)) == {
            str(paths[2])
        }
        assert read == []  # now the index answers


def test_a_file_that_grew_while_it_was_read_is_not_settled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its row has no mtime (read again next time, see `scanner.read_update`): a session
    being written, whose whole text indexed, then deleted at its next change, grew the
    app's memory. Read as any text not indexed yet; indexed once a read sees it settled."""
    monkeypatch.setattr(text_index, "SETTLE_MIN_BYTES", 0)
    root = tmp_path / "sessions"
    path = _settled([_write(root, "s", ["a growing quokka"])])[0]
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        catalog.index.db.execute("UPDATE files SET mtime_ns=0, text_rowid=NULL")
        assert not catalog.index.texts_left()
        read: list[int] = []
        assert catalog.index.text_holding("quokka", {str(path)}, lambda: read.append(1))
        assert read == [1]  # its text, read
        catalog.index.db.execute("UPDATE files SET mtime_ns=1")  # read again, settled
        _index_texts(catalog)
        read.clear()
        assert catalog.index.text_holding("quokka", {str(path)}, lambda: read.append(1))
        assert read == []  # the index answers


def test_a_small_file_just_written_is_indexed_at_once(tmp_path: Path) -> None:
    """A store just copied has every file new: small texts are indexed without waiting."""
    root = tmp_path / "sessions"
    _write(root, "fresh", ["a fresh quokka"])
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        assert not catalog.index.texts_left()
        read: list[int] = []
        among = {s.path for s in catalog.sessions()}
        assert catalog.index.text_holding("quokka", among, lambda: read.append(1))
        assert read == []  # the index answered


def _message(n: int, content: object) -> bytes:
    line = {"type": "message", "id": f"part{n:04x}", "parentId": None,
            "timestamp": "2026-02-01T00:00:00.000Z",
            "message": {"role": "user" if n % 2 else "assistant", "content": content}}  # fmt: skip
    return json.dumps(line).encode() + b"\n"  # (orjson refuses a lone surrogate)


def _stored(catalog: Catalog, path: Path) -> tuple[str, dict[str, object]]:
    """The session's stored text (whole) and its builder's state."""
    text = catalog.index.summaries([str(path)])[str(path)].all_messages_text
    loaded = catalog.index.builder(str(path))
    assert loaded is not None
    return text, loaded[1].state()


def _part_texts(catalog: Catalog, path: Path) -> list[str]:
    found = catalog.index.db.execute(
        "SELECT p.text FROM text_parts p JOIN files f ON f.id = p.file_id WHERE f.path=? "
        "ORDER BY p.rowid",
        (str(path),),
    )
    return [text for (text,) in found]


@pytest.mark.parametrize("indexed_first", [False, True])
def test_appended_lines_store_the_text_by_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, indexed_first: bool
) -> None:
    """A session that grows by appends has its text stored by the appended parts (the text
    before them neither read nor written again); stored and searched, it is what a read of
    the whole file gives: with a partial last line, past the session's cap, with a lone
    surrogate (whose text the state must then hold whole)."""
    from pitui.core.catalog.session_info import entry_rules, fast_entries

    cap = 400  # characters of text kept per session, here
    monkeypatch.setattr(entry_rules, "SESSION_TEXT_CAP", cap)
    monkeypatch.setattr(fast_entries, "SESSION_TEXT_CAP", cap)
    monkeypatch.setattr(text_index, "SETTLE_MIN_BYTES", 0)  # every file counts as large
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = _store(root)
    if indexed_first:  # settled and indexed: a change retires its indexed text
        _settled(paths)
    target = paths[1]
    steps: list[list[bytes]] = [
        [_message(1, "a growing quokka"), _message(2, [{"type": "text", "text": "two"}])],
        [_message(3, "partial tail words")[:-1]],  # a last line being written
        [b"\n", _message(4, "after the tail")],
        [_message(5, "")],  # no text
        [_message(6, "a lone \ud83d surrogate")],
        [_message(7, "x" * 150), _message(8, "y" * 150)],  # past the cap
        [_message(9, "capped: not kept")],
    ]
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        if indexed_first:
            assert not catalog.index.texts_left()
        head = _part_texts(catalog, target)
        for n, lines in enumerate(steps):
            with target.open("ab") as fh:
                fh.write(b"".join(lines))
            assert catalog.update_paths([target]) == [target]
            with Catalog(root, cache_dir=tmp_path / f"fresh{n}") as fresh:
                fresh.scan()
                assert _stored(catalog, target) == _stored(fresh, target)
                assert _answers(catalog, True) == _answers(fresh, True)
            assert _answers(catalog, True) == _answers(catalog, False)
            if n == 0:  # the text before it stays as it was, the new lines a part after it
                assert _part_texts(catalog, target)[:-1] == head and len(head) == 1
        assert "quokka" in _stored(catalog, target)[0]
        assert "capped" not in _stored(catalog, target)[0]
        assert str(target) in _holding(catalog, "after the tail")
        _settled([target])
        _index_texts(catalog)  # the parts are joined into one when the text is indexed
        assert len(_part_texts(catalog, target)) == 1
        catalog.index.db.execute("INSERT INTO text_fts(text_fts) VALUES('integrity-check')")
        assert _answers(catalog, True) == _answers(catalog, False)
        assert str(target) in _holding(catalog, "a growing quokka")


def test_a_resumed_read_holds_none_of_the_stored_text(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    path = _write(root, "s", ["some words", "more words"])
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        loaded = catalog.index.builder(str(path))
        assert loaded is not None
        assert loaded[1].texts == [] and loaded[1].text_before == len("some words more words")


def test_the_text_pass_writes_no_step_while_a_search_is_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass took the index again right after each step, before a search waiting for it
    woke: a search asking between steps waited for the whole pass. Now no step is written
    while a search is under way, and the pass goes on once it is over."""
    monkeypatch.setattr(text_index, "STEP_BYTES", 1)  # a step a text
    _settled(_store(tmp_path / "sessions"))
    with Catalog(tmp_path / "sessions", cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        index = catalog.index
        pending = index.texts_pending_bytes()
        assert pending > 0
        with index.searching():
            passing = threading.Thread(target=index.index_texts, args=(threading.Event(),))
            passing.start()
            time.sleep(0.3)  # time for several steps, were any written
            assert index.texts_pending_bytes() == pending
        passing.join(10)
        assert not passing.is_alive()
        assert not index.texts_left()


def test_stored_texts_read_together_are_each_sessions_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The texts a search reads of many sessions at once (their parts in one query) are each
    session's own: one without text, one in one part, one grown by appended parts."""
    monkeypatch.setattr(text_index, "SETTLE_MIN_BYTES", 0)  # not indexed: the parts stay
    root = tmp_path / "sessions"
    silent = _write(root, "silent", [])
    whole = _write(root, "whole", ["the whole text", "in one part"])
    grown = _write(root, "grown", ["first words"])
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        for n in range(3):
            with grown.open("ab") as fh:
                fh.write(_message(n, f"appended {n}"))
            catalog.update_paths([grown])
        assert len(_part_texts(catalog, grown)) == 4
        stored = {p: s.all_messages_text for p, s in catalog.index.summaries().items()}
        paths = {str(silent), str(whole), str(grown)}
        read = dict(text_index.texts_of(catalog.index.db, paths, pending_only=True))
    assert read == stored
    assert read[str(silent)] == "" and "appended 2" in read[str(grown)]
    assert read[str(grown)].index("first words") < read[str(grown)].index("appended 0")
