"""Pi's picker search syntax, ranking tiers, pitui's filters, sort modes and threading."""

from __future__ import annotations

import builtins
import io
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.search.query import Token, parse_query

H = {"type": "session", "version": 3}


def _write(root: Path, name: str, cwd: str, texts: list[str], **extra: object) -> Path:
    folder = root / "--p--"
    folder.mkdir(parents=True, exist_ok=True)
    ts = extra.pop("ts", "2026-01-01T00:00:00.000Z")
    lines = [{**H, "id": name, "timestamp": ts, "cwd": cwd, **extra.pop("header", {})}]
    for i, text in enumerate(texts):
        msg = {"role": "user" if i % 2 == 0 else "assistant", "content": text}
        lines.append(
            {"type": "message", "id": f"{i:08x}", "parentId": None, "timestamp": ts, "message": msg}
        )
    for kind, value in extra.items():
        lines.append({"type": kind, "id": "ffff0000", "parentId": None, "timestamp": ts, **value})  # type: ignore[dict-item]
    path = folder / f"{name}.jsonl"
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    return path


@pytest.fixture
def catalog(tmp_path: Path) -> Catalog:
    root = tmp_path / "s"
    a = _write(
        root,
        "alpha",
        "/work/webshop",
        ["fix the parser", "done"],
        ts="2026-01-05T00:00:00.000Z",
        session_info={"name": "Parser work"},
    )
    _write(
        root,
        "beta",
        "/work/parser-lib",
        ["hello world"],
        ts="2026-01-04T00:00:00.000Z",
        header={"parentSession": str(a)},
    )
    _write(
        root,
        "gamma",
        "/work/other",
        ["Übersetzung   des  Textes", "talk about the parser"],
        ts="2026-01-03T00:00:00.000Z",
        label={"targetId": "00000000", "label": "important"},
    )
    _write(root, "delta", "/work/pxaxrxsxexr", ["nothing here"], ts="2026-01-02T00:00:00.000Z")
    tool = {
        "role": "toolResult",
        "toolCallId": "t",
        "toolName": "bash",
        "content": [{"type": "text", "text": "segfault in zlibwrapper"}],
    }
    _write(
        root, "eps", "/w/e", ["run it"], ts="2026-01-01T00:00:00.000Z", message={"message": tool}
    )
    cat = Catalog(root, no_cache=True)
    cat.scan()
    return cat


def _ids(catalog: Catalog, query: str, **kw: object) -> list[str]:
    result = catalog.search(query, sort=kw.pop("sort", "relevance"), **kw)  # type: ignore[arg-type]
    assert result.error is None
    return [r.summary.id for r in result.rows]


def test_tiers_name_then_text_then_fuzzy(catalog: Catalog) -> None:
    assert _ids(catalog, "parser") == ["alpha", "beta", "gamma", "delta"]
    assert _ids(catalog, "parser", sort="recent") == ["alpha", "beta", "gamma", "delta"]


def test_and_tokens_case_insensitive(catalog: Catalog) -> None:
    assert _ids(catalog, "PARSER talk") == ["gamma"]
    assert _ids(catalog, "hello WORLD") == ["beta"]


def test_phrase_and_unicode(catalog: Catalog) -> None:
    assert _ids(catalog, '"übersetzung des textes"') == ["gamma"]
    assert _ids(catalog, '"world hello"') == []
    assert _ids(catalog, 'übersetzung "des  textes"') == ["gamma"]


def test_regex_and_invalid_regex(catalog: Catalog) -> None:
    assert _ids(catalog, "re:^fix the") == ["alpha"]
    assert _ids(catalog, "re:PARSER WORK") == ["alpha"]
    bad = catalog.search("re:(unclosed")
    assert bad.rows == [] and bad.error and "regular expression" in bad.error
    assert catalog.search("re:").error == "Empty regex"


def test_a_regex_that_backtracks_without_end_stops_with_a_message(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's `re` would match `(a|aa)+$` against this text for ages, holding the GIL (the
    app froze); the search now spends at most its budget and says so."""
    from pitui.core.catalog.search import regex_query

    monkeypatch.setattr(regex_query, "BUDGET", 0.3)
    _write(tmp_path / "s", "slow", "/w", ["a" * 80 + "!"])
    catalog.scan()
    slow = catalog.search("re:(a|aa)+$")
    assert slow.rows == []
    assert slow.error == "Regular expression too slow: /(a|aa)+$/ took over 0.3 s; simplify it"
    assert _ids(catalog, "re:a{80}!") == ["slow"]  # the next search has its own budget


def test_closing_the_catalog_stops_a_regex_search_at_its_next_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The regex ran over every stored text with the index's lock held: quitting the app
    waited for it (up to its 2 s budget) to close the index."""
    from pitui.core.catalog.search import regex_query
    from pitui.core.catalog.search.search import SearchCancelled

    root = tmp_path / "s"
    for n in range(40):
        _write(root, f"s{n:02d}", "/w", [f"text {n}"])
    catalog = Catalog(root, cache_dir=tmp_path / "cache")
    catalog.scan()
    catalog.index.index_texts(threading.Event())  # every text from the index: the lock held
    looked: list[str] = []
    first = threading.Event()

    def slow_found(self: Any, text: str) -> bool:
        looked.append(text)
        first.set()
        closed.wait(5)  # the catalog is closed while the search looks at this text
        return False

    monkeypatch.setattr(regex_query.TimedSearch, "found", slow_found)
    closed = threading.Event()
    outcome: list[BaseException] = []

    def search() -> None:
        try:
            catalog.search("re:text", index_tools=False)
        except BaseException as error:
            outcome.append(error)

    searching = threading.Thread(target=search)
    searching.start()
    assert first.wait(5)
    stop_scans = catalog.stop_scans
    monkeypatch.setattr(catalog, "stop_scans", lambda: (closed.set(), stop_scans()))
    closer = threading.Thread(target=catalog.close)  # sets `closed` once it is closing
    closer.start()
    closer.join(5)
    searching.join(5)
    assert not closer.is_alive() and not searching.is_alive()
    assert len(looked) == 1 and isinstance(outcome[0], SearchCancelled)


def test_a_cwd_path_is_that_folder_and_those_under_it(tmp_path: Path) -> None:
    root = tmp_path / "s"
    for name, cwd in [("p3", "/home/dev/proj-3"), ("p30", "/home/dev/proj-30"),
                      ("sub", "/home/dev/proj-3/api"), ("up", "/home/dev")]:  # fmt: skip
        _write(root, name, cwd, ["hello"])
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        assert sorted(_ids(catalog, "cwd:/home/dev/proj-3")) == ["p3", "sub"]
        assert sorted(_ids(catalog, "cwd:/home/dev/proj-3/")) == ["p3", "sub"]
        assert sorted(_ids(catalog, "cwd:/home/dev/PROJ-3 hello")) == ["p3", "sub"]
        assert sorted(_ids(catalog, "cwd:proj-3")) == ["p3", "p30", "sub"]  # a part of it
        assert len(_ids(catalog, "cwd:/")) == 4


def test_filters(catalog: Catalog) -> None:
    assert _ids(catalog, "cwd:webshop") == ["alpha"]
    assert _ids(catalog, 'name:"parser work"') == ["alpha"]
    assert _ids(catalog, "label:import") == ["gamma"]
    assert _ids(catalog, "label:") == ["gamma"]  # bare: any label, as a bare `tag:`
    assert _ids(catalog, 'label: "important"') == ["gamma"]  # the phrase is its value
    assert _ids(catalog, "label:nothing-like-it") == []
    assert _ids(catalog, "after:2026-01-04", sort="recent") == ["alpha", "beta"]
    assert _ids(catalog, "before:2026-01-03 parser") == ["delta"]
    assert catalog.search("after:yesterday").error


def test_a_bare_label_is_a_filter_other_bare_fields_stay_words() -> None:
    """A bare `label:` means any label; `cwd:`, `name:`, `model:` ... alone stay plain words,
    searched as Pi searches them."""
    query = parse_query("label: parser")
    assert query.filters == [("label", "")] and query.tokens == [Token("fuzzy", "parser")]
    for bare in ("cwd:", "name:", "model:", "after:", "before:", "file:"):
        query = parse_query(bare)
        assert query.tokens == [Token("fuzzy", bare)] and not query.filters and not query.files
    assert parse_query("re:label:").mode == "regex"


def test_extra_tiers_labels_and_tools(catalog: Catalog) -> None:
    assert _ids(catalog, "important") == ["gamma"]
    assert _ids(catalog, "segfault") == ["eps"]
    assert _ids(catalog, "zlibwrap") == ["eps"]  # word prefix in tool output


def test_a_search_indexes_only_the_tool_output_it_needs(tmp_path: Path) -> None:
    """Issue 27: before the tool-output index is built, `index_tools=True` reads the tool
    output of just the sessions no other tier matched (and says how far it is), so the
    answer is the one the whole index gives."""
    root = tmp_path / "s"
    tool = {"role": "toolResult", "toolCallId": "t", "toolName": "bash",
            "content": [{"type": "text", "text": "segfault in zlibwrapper"}]}  # fmt: skip
    _write(root, "eps", "/w/e", ["run it"], message={"message": tool})
    _write(root, "zeta", "/w/z", ["zlibwrapper again"], message={"message": tool})
    _write(root, "eta", "/w/h", ["nothing"])
    with Catalog(root, no_cache=True) as cat:
        cat.scan(tools="later")
        said: list[tuple[int, int]] = []
        result = cat.search(
            "zlibwrap", sort="relevance", index_tools=True, tools_progress=lambda *a: said.append(a)
        )
        assert [r.summary.id for r in result.rows] == ["zeta", "eps"]  # the text's tier first
        assert said[-1] == (2, 2)  # eps and eta: zeta matched by its text
        assert [t.path for t in cat.index.tool_tasks()] == [str(root / "--p--" / "zeta.jsonl")]
        assert not result.tools_pending


def test_threaded_named_only(catalog: Catalog) -> None:
    rows = catalog.search("", sort="threaded").rows
    assert [(r.summary.id, r.depth) for r in rows][:2] == [("alpha", 0), ("beta", 1)]
    assert rows[1].guide() == "   └─ " and rows[1].is_last_child
    assert _ids(catalog, "", named_only=True, sort="threaded") == ["alpha"]
    assert catalog.search("", sort="bogus").error


def test_unbalanced_quote_falls_back(catalog: Catalog) -> None:
    # as Pi: plain whitespace tokens, the quote character stays part of the first token
    assert _ids(catalog, '"hello world') == []
    assert _ids(catalog, 'world hello"') == []


def test_warm_searches_read_no_session_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once listed, searches are answered from memory and the index without opening a
    session file (their speed on 1,000 and 5,000 sessions is in benchmarks/bench_catalog.py)."""
    root = tmp_path / "s"
    words = ["alpha", "beta", "gamma", "delta", "parser", "render", "kernel", "network"]
    for i in range(200):
        texts = [" ".join(words[(i + j) % 8] for j in range(60)) * 8 for _ in range(6)]
        _write(root, f"s{i:04d}", f"/work/p{i % 20}", texts)
    opened: list[str] = []

    def watching(real: Callable[..., Any]) -> Callable[..., Any]:
        def open_and_note(file: Any, *args: Any, **kwargs: Any) -> Any:
            if str(file).startswith(str(root)):
                opened.append(str(file))
            return real(file, *args, **kwargs)

        return open_and_note

    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        for module, name in ((os, "open"), (builtins, "open"), (io, "open")):
            monkeypatch.setattr(module, name, watching(getattr(module, name)))
        found = {}
        for query in ("kernel", "pars net", '"gamma delta"', "re:kern.l", "cwd:p3 zzz", "nomatch"):
            found[query] = len(catalog.search(query).rows)
    assert opened == []
    assert found["kernel"] == found["re:kern.l"] == 200 and found["nomatch"] == 0


def test_tool_output_holds_every_word_of_a_token(tmp_path: Path) -> None:
    """The tool-output index keeps no positions: a token of several words matches tool
    output holding each of them (the last as a prefix unless quoted); a word missing, or a
    token with no word at all, matches nothing there."""
    root = tmp_path / "s"
    tool = {"role": "toolResult", "toolCallId": "t", "toolName": "bash",
            "content": [{"type": "text", "text": "Traceback: src/app.py line 3, Straße"}]}  # fmt: skip
    _write(root, "eps", "/w/e", ["run it"], message={"message": tool})
    _write(root, "eta", "/w/h", ["nothing"])
    with Catalog(root, no_cache=True) as cat:
        cat.scan()
        found = {q: [r.summary.id for r in cat.search(q).rows]
                 for q in ("src/app.py", "app.p", '"src app"', "strasse", "strasze",
                           "src/zzz", '"app.p"', "--", "line/traceback")}  # fmt: skip
    assert found == {
        "src/app.py": ["eps"],
        "app.p": ["eps"],  # the last word a prefix
        '"src app"': ["eps"],
        "strasse": [],  # FTS5 folds case and diacritics, not ß
        "strasze": [],
        "src/zzz": [],
        '"app.p"': [],  # a phrase's words are whole words
        "--": [],
        "line/traceback": ["eps"],  # not next to each other: no positions to tell
    }
