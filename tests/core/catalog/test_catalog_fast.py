"""The fast paths give the exact path's answers: typed line decoding, worker processes, the
deferred tool-output index, listing while a scan runs."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from waiting import wait_until

import pitui.core.catalog.scan.scan_pass as scan_pass_module
import pitui.core.catalog.scan.tool_pass as tool_pass_module
from pitui.core.catalog import lossless_json
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index.index import Index
from pitui.core.catalog.scan.scanner import read_update
from pitui.core.catalog.scan.tools import tool_text
from pitui.core.catalog.session_info.builder import SummaryBuilder
from pitui.demo.generate import generate_corpus, generate_store

HEADER = b'{"type":"session","id":"s","timestamp":"2026-02-01T00:00:00Z","cwd":"/x"}'
ODD_LINES = [
    b'{"type":"message","id":"a1","parentId":null,"timestamp":"2026-02-01T00:00:01Z",'
    b'"message":{"role":"user","content":"hello","timestamp":18446744073709551616}}',
    b'{"type":"message","id":"a2","parentId":"a1","timestamp":[2026,1],'
    b'"message":{"role":"user","content":"arr stamp"}}',
    b'{"type":"message","id":"a3","parentId":"a2","timestamp":{"x":1},'
    b'"message":{"role":"assistant","content":[{"type":"text","text":12},'
    b'{"type":"text","text":true},{"type":"text"},"x",{"type":"image"}]}}',
    b'{"type":"message","id":"a4","parentId":"a3","message":{"role":"assistant","content":"a",'
    b'"model":"m1","usage":{"totalTokens":9223372036854775808,"cost":{"total":0.5}}}}',
    b'{"type":"message","id":"a5","parentId":"a4","message":{"role":"assistant","content":"b",'
    b'"usage":{"input":3,"output":"4","cacheRead":2.5,"cost":7}}}',
    b'{"type":"message","id":"a6","parentId":"a5","message":{"role":"assistant","content":"c",'
    b'"usage":[1]}}',
    b'{"type":"message","id":"a7","parentId":"a6","message":"not an object"}',
    b'{"type":"message","id":"a8","parentId":"a7","message":{"role":"user"}}',
    b'{"type":"message","id":"a9","parentId":"a8","message":{"role":7,"content":"x"}}',
    b'{"type":"message","id":"b1","parentId":"a9","message":{"role":"user","content":"\\ud800"}}',
    b'{"type":"message","id":"b2","parentId":"b1","message":{"role":"user","content":"\xff\xfe"}}',
    b'{"ty\\u0070e":"message","id":"b3","parentId":"b2","message":{"role":"user","content":"esc"}}',
    b'{"type":"message","type":"label","id":"b4","parentId":"b3","targetId":"a1","label":"L"}',
    b'{"type":"label","id":"b5","parentId":"b4","targetId":"a1","label":""}',
    b'{"type":"model_change","id":"b6","parentId":"b5","modelId":"m2"}',
    b'{"type":"session_info","id":"b7","parentId":"b6","name":"  named "}',
    b'{"type":"message","id":"b8","parentId":"b7","message":{"role":"toolResult","content":[1,2,}}',
    b'{"type":"message","id":"b9","parentId":"b8","message":{"role":"user","content":1e400}}',
    b"[1,2]",
    b"   ",
    b'{"type":"message","id":"c1","parentId":"b9","message":{"role":"user","content":"x"}}\r'
    b'{"type":"message","id":"c2","parentId":"c1","message":{"role":"user","content":"y"}}',
    b'{"type":"message","id":"c3","parentId":"c2","message":{"role":"user","content":[null]}}',
    b'{"type":"message","id":"c4","parentId":"c3","message":{"role":"user","content":"after"}}',
]


def _exact(lines: list[bytes]) -> SummaryBuilder:
    builder = SummaryBuilder()
    for line in lines:
        builder.feed_line(line)
    return builder


def _fast(lines: list[bytes]) -> SummaryBuilder:
    builder = SummaryBuilder()
    builder.feed_lines(lines)
    return builder


def _same(a: SummaryBuilder, b: SummaryBuilder) -> None:
    assert lossless_json.dumps(a.state()) == lossless_json.dumps(b.state())
    assert a.texts == b.texts
    sa, sb = a.summarize("p", 1, 0), b.summarize("p", 1, 0)
    assert (sa and sa.to_json()) == (sb and sb.to_json())


@pytest.mark.parametrize("upto", [*range(1, len(ODD_LINES)), len(ODD_LINES)])
def test_typed_decoding_matches_exact_path(upto: int) -> None:
    lines = [HEADER, *ODD_LINES[:upto]]
    _same(_exact(lines), _fast(lines))


def test_typed_decoding_matches_on_corpus(tmp_path: Path) -> None:
    paths = generate_corpus(tmp_path / "s", seed=13, count=24)
    for path in paths:
        lines = path.read_bytes().split(b"\n")
        _same(_exact(lines), _fast(lines))


def test_resume_uses_the_state_it_loads(tmp_path: Path) -> None:
    """Another catalog moved the row on: resuming from a stale row must not count twice."""
    root = tmp_path / "s"
    path = generate_corpus(root, seed=2, count=3, include_malformed=False)[0]
    index = Index(None)
    first = read_update(str(path), None, index.builder)
    assert first is not None
    index.write([first])
    with path.open("ab") as fh:
        fh.write(ODD_LINES[-1] + b"\n")
    newer = read_update(str(path), first.row, index.builder)
    assert newer is not None
    index.write([newer])
    again = read_update(str(path), first.row, index.builder)  # stale row, current state
    fresh = read_update(str(path), None, index.builder)
    assert again is not None and fresh is not None and again.summary and fresh.summary
    assert again.summary.to_json() == fresh.summary.to_json()


def _tool_line(entry_id: str, text: str, role: str = "toolResult") -> bytes:
    body = {"output": text} if role == "bashExecution" else {}
    message = {"role": role, "content": [{"type": "text", "text": text}], **body}
    entry = {"type": "message", "id": entry_id, "parentId": None, "message": message}
    return orjson.dumps({**entry, "timestamp": "2026-03-01T00:00:00.000Z"}) + b"\n"


def _session(root: Path, name: str, tool_texts: list[str]) -> Path:
    folder = root / "--p--"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    header = {"type": "session", "id": name, "timestamp": "2026-03-01T00:00:00Z", "cwd": "/p"}
    user = {"role": "user", "content": f"talk {name}"}
    lines = [orjson.dumps(header) + b"\n"]
    lines.append(orjson.dumps({"type": "message", "id": "u0", "parentId": None,
                               "timestamp": "2026-03-01T00:00:00Z", "message": user}) + b"\n")  # fmt: skip
    lines += [_tool_line(f"t{i:07d}", text) for i, text in enumerate(tool_texts)]
    path.write_bytes(b"".join(lines))
    return path


def _ids(catalog: Catalog, query: str) -> list[str]:
    return [r.summary.id for r in catalog.search(query, sort="recent").rows]


def test_tool_text_of_a_range() -> None:
    data = _tool_line("a", "first out") + _tool_line("b", "bash out", "bashExecution")
    data += b'{"type":"message","message":{"role":"tool\\u0052esult","content":"escaped role"}}\n'
    data += b'{"type":"message","message":{"role":"toolResult","content":"\xffbad"}}\n'
    assert tool_text(data).split("\n") == ["first out", "bash out", "escaped role", "\ufffdbad"]


def test_tools_deferred_then_indexed(tmp_path: Path) -> None:
    root = tmp_path / "s"
    _session(root, "one", ["segfault in zlibwrapper"])
    _session(root, "two", ["all fine"])
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(tools="later")
        assert catalog.tools_pending
        result = catalog.search("zlibwrap")
        assert result.rows == [] and result.tools_pending
        assert len(_ids(catalog, "talk")) == 2  # the listing and conversation search are in
        catalog.index_tools()
        assert not catalog.tools_pending
        result = catalog.search("zlibwrap")
        assert [r.summary.id for r in result.rows] == ["one"] and not result.tools_pending
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:  # persisted
        catalog.scan(tools="later")
        assert not catalog.tools_pending and _ids(catalog, "segfault") == ["one"]


def test_tools_background_and_close_midway(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "s"
    for i in range(30):
        _session(root, f"s{i:02d}", [f"needle{i:02d} " + "filler words " * 2000] * 3)
    monkeypatch.setattr(tool_pass_module, "TOOL_BATCH_BYTES", 50_000)
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(progress=lambda d, t: None)
        assert catalog.tools.thread is not None  # "auto" with a progress callback
    seen: list[tuple[int, int]] = []
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:  # resumes what is left
        catalog.scan(tools="background", tools_progress=lambda d, t: seen.append((d, t)))
        wait_until(lambda: not catalog.tools_pending, "the background tool pass", 30)
        assert catalog.tools_error is None
        assert not seen or seen[-1][0] == seen[-1][1]
        assert _ids(catalog, "needle07") == ["s07"]
        assert len(_ids(catalog, "filler")) == 30


def test_a_resumed_pass_counts_what_the_index_already_holds(tmp_path: Path) -> None:
    root = tmp_path / "s"
    paths = [_session(root, f"s{i}", [f"needle{i} " + "filler " * 500]) for i in range(4)]
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(tools="later")
        catalog.tools.index_of({str(p) for p in paths[:2]})  # half the tool output, quit
    seen: list[tuple[int, int]] = []
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(tools="background", tools_progress=lambda d, t: seen.append((d, t)))
        wait_until(lambda: not catalog.tools_pending, "the background tool pass", 30)
    first_done, total = seen[0]
    assert 0.3 < first_done / total < 0.7, seen  # half the tool output was in (not 0%)
    assert seen[-1][0] == seen[-1][1]
    assert _ids_after(tmp_path, root, "needle3") == ["s3"]


def _ids_after(tmp_path: Path, root: Path, query: str) -> list[str]:
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(tools="later")
        return _ids(catalog, query)


def test_rewritten_and_deleted_files_leave_no_tool_hits(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root, cache = tmp_path / "s", tmp_path / "c"
    a = _session(root, "a", ["oldneedle here"])
    b = _session(root, "b", ["otherneedle"])
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert _ids(catalog, "oldneedle") == ["a"]
    _session(root, "a", ["newneedle"])  # rewritten
    b.unlink()
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        assert _ids(catalog, "oldneedle") == [] and _ids(catalog, "newneedle") == ["a"]
        assert _ids(catalog, "otherneedle") == []
    monkeypatch.setattr("pitui.core.catalog.index.index.GARBAGE_MIN", 1)
    with open(a, "ab") as fh:
        fh.write(_tool_line("zz", "appendedneedle"))
    with Catalog(root, cache_dir=cache) as catalog:  # garbage outweighs: tool index rebuilt
        catalog.scan()
        assert _ids(catalog, "newneedle") == ["a"] and _ids(catalog, "appendedneedle") == ["a"]
        assert _ids(catalog, "oldneedle") == []
        garbage = catalog.index.db.execute("SELECT value FROM meta WHERE key='tool_garbage'")
        assert garbage.fetchone() is None


def test_update_paths_indexes_appended_tool_output(tmp_path: Path) -> None:
    root = tmp_path / "s"
    path = _session(root, "a", ["before"])
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan()
        with path.open("ab") as fh:
            fh.write(_tool_line("zz", "appendedword"))
        assert catalog.update_paths([path]) == [path]
        assert _ids(catalog, "appendedword") == ["a"] and not catalog.tools_pending


def test_on_batch_and_parallel_equal_serial(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "s"
    generate_store(root, 60, 30, seed=1)
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        serial = [s.to_json() for s in catalog.sessions()]
        serial_hits = _ids(catalog, "parser")
    monkeypatch.setattr(scan_pass_module, "PARALLEL_MIN", 10)
    monkeypatch.setattr(scan_pass_module, "BATCH", 16)
    batches: list[int] = []
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:
        catalog.scan(on_batch=lambda sessions: batches.append(len(sessions)), tools="now")
        assert [s.to_json() for s in catalog.sessions()] == serial
        assert _ids(catalog, "parser") == serial_hits
    assert len(batches) >= 3 and batches == sorted(batches) and batches[-1] == 60


def test_indexing_gives_free_pages_back(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """FTS5's merges leave pages free; once the tool pass is over, the file shrinks to
    what it holds (a 10,000-session index had 157 MB of 696 MB free)."""
    from pitui.core.catalog.index import schema

    monkeypatch.setattr(schema, "FREE_PAGES_KEPT", 1)
    root = tmp_path / "s"
    for i in range(5):
        _session(root, f"s{i}", [f"needle{i} " * 20_000])
    with Catalog(root, cache_dir=tmp_path / "c") as cat:
        cat.scan(tools="later")
        db = cat.index.db
        db.execute("CREATE TABLE filler(x)")  # pages the index then no longer needs
        db.executemany("INSERT INTO filler VALUES(zeroblob(4000))", [()] * 500)
        db.execute("DROP TABLE filler")
        assert db.execute("PRAGMA freelist_count").fetchone()[0] >= 500
        cat.tools.index_all()
        assert db.execute("PRAGMA freelist_count").fetchone()[0] == 0
        assert _ids(cat, "needle3") == ["s3"]  # the index still answers


def test_when_the_background_pass_says_it_is_over_nothing_is_pending(tmp_path: Path) -> None:
    """The picker searches again when the pass says it is over; that search was told
    "tool output pending" while the pass's thread was still ending, so the answer kept
    "so far" for good (seen at 10,000 sessions, minutes after indexing ended)."""
    root = tmp_path / "s"
    for i in range(4):
        _session(root, f"s{i}", [f"needle{i} " + "filler " * 500])
    pending_when_over: list[bool] = []
    with Catalog(root, cache_dir=tmp_path / "c") as catalog:

        def progress(done: int, total: int) -> None:
            if done >= total:
                pending_when_over.append(catalog.tools_pending)

        catalog.scan(tools="background", tools_progress=progress)
        wait_until(lambda: not catalog.tools_pending, "the pass over", 30)
    assert pending_when_over and pending_when_over[-1] is False, pending_when_over
