"""A session with one huge line is indexed in memory bounded by a constant plus that line,
keeping a capped amount of its text (issue 18): never a second copy of the line."""

from __future__ import annotations

import io
import json
import random
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan import lines
from pitui.core.catalog.session_info import capped
from pitui.core.format.jsonline import parse_line

BIG = 32 * 1024 * 1024


def _line(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


def _huge_store(root: Path) -> tuple[Path, str]:
    """A session whose user message and tool result are each one BIG-byte line (written as
    bytes: encoding 32 MB through json.dumps would take seconds)."""
    folder = root / "--w--"
    folder.mkdir(parents=True)
    unit = 'alpha beta \u00e9t\u00e9 "quoted" back\\slash tab\t \U0001f600 x '
    escaped = json.dumps(unit)[1:-1].encode()  # with \\u escapes, as Node would not: fine
    count = BIG // len(escaped)
    text = "needle-at-start " + unit * count + " needle-at-end"
    body = b"needle-at-start " + escaped * count + b" needle-at-end"
    stamp = "2026-01-01T00:00:00.000Z"
    head = '{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":{"role":"%s",'
    path = folder / "huge.jsonl"
    with path.open("wb") as fh:
        fh.write(
            _line({"type": "session", "version": 3, "id": "huge", "timestamp": stamp, "cwd": "/w"})
        )
        fh.write((head % ("u1", "null", stamp, "user")).encode())
        fh.write(b'"content":[{"type":"text","text":"' + body + b'"}]}}\n')
        fh.write((head % ("t1", '"u1"', stamp, "toolResult")).encode())
        fh.write(
            b'"toolCallId":"c","content":[{"type":"text","text":"toolstart ' + body + b'"}]}}\n'
        )
        fh.write(_line({"type": "message", "id": "u2", "parentId": "t1", "timestamp": stamp,
                        "message": {"role": "user", "content": "after the giant"}}))  # fmt: skip
    return path, text


@pytest.mark.slow
def test_huge_line_is_indexed_once_and_capped(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    path, text = _huge_store(root)
    line_size = max(len(raw) for raw in path.read_bytes().split(b"\n"))
    tracemalloc.start()
    try:
        with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
            catalog.scan(tools="now")
            peak = tracemalloc.get_traced_memory()[1]
            [summary] = catalog.index.summaries().values()  # with its text
            assert summary.first_message == text[: capped.MESSAGE_TEXT_CAP]
            assert len(summary.all_messages_text) <= capped.SESSION_TEXT_CAP
            assert summary.all_messages_text.endswith("after the giant")
            assert summary.message_count == 3
            for query, found in [("needle-at-start", True), ("after the giant", True),
                                 ("toolstart", True), ("needle-at-end", False)]:  # fmt: skip
                hits = [r.summary.id for r in catalog.search(query, sort="recent").rows]
                assert hits == (["huge"] if found else []), query
    finally:
        tracemalloc.stop()
    # one copy of the longest line, plus what is kept (capped) and a constant
    assert peak < line_size + 4 * capped.SESSION_TEXT_CAP + 16 * 1024 * 1024, peak / 2**20


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_line_reader_splits_as_lines_do(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(200):
        data = bytes(rng.choice(b"1 \n") for _ in range(rng.randint(0, 40)))  # may be JSON
        start = rng.randint(0, len(data))
        start = data.rfind(b"\n", 0, start) + 1  # a line start
        reader = lines.LineReader(io.BytesIO(data), start)
        got = [piece for chunk_, _ in reader for piece in chunk_.split(b"\n")]
        cut = data.rfind(b"\n") + 1 if data.rfind(b"\n") >= start else start
        assert got == (data[start : cut - 1].split(b"\n") if cut > start else [])
        assert reader.offset == cut and reader.tail == data[cut:]
        stop = data.rfind(b"\n") + 1
        if stop > start:  # a range ending after a newline
            ranged = lines.LineReader(io.BytesIO(data), start, stop)
            ends = [end for _, end in ranged]
            assert ends[-1] == stop and ranged.tail == b""


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
def test_line_reader_stands_in_for_long_lines_that_cannot_be_json(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines of letters are not JSON: a long one comes as `NOT_JSON` (never read whole),
    a short one as itself; either way one line each, and the offsets are the file's."""
    monkeypatch.setattr(lines, "CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(200):
        data = bytes(rng.choice(b"ab\n") for _ in range(rng.randint(0, 40)))
        reader = lines.LineReader(io.BytesIO(data), 0)
        got = [piece for chunk_, _ in reader for piece in chunk_.split(b"\n")]
        cut = data.rfind(b"\n") + 1
        expected = data[: cut - 1].split(b"\n") if cut else []
        assert len(got) == len(expected)
        for line, want in zip(got, expected, strict=True):
            assert line == want or (line == lines.NOT_JSON and len(want) > chunk)
        assert reader.offset == cut and reader.end == len(data)
        assert reader.tail in (data[cut:], lines.NOT_JSON)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab"\\\n\t\u00e9\ud83d\ude00\U0001f600'), max_size=60),
       st.integers(0, 70))  # fmt: skip
def test_capped_string_is_a_prefix_of_the_whole(value: str, chars: int) -> None:
    raw = json.dumps(value).encode()
    for ascii_ in (True, False):
        raw = json.dumps(value, ensure_ascii=ascii_).encode("utf-8", "surrogatepass")
        assert capped.string(raw, chars) == parse_line(raw)[:chars]


def test_huge_header_without_newline(tmp_path: Path) -> None:
    """A 32 MB first line (no newline: a write in progress) is listed as Pi lists it, read
    for its header keys alone: one copy of the line, and no huge blob in the index."""
    folder = tmp_path / "sessions" / "--w--"
    folder.mkdir(parents=True)
    head = b'{"type":"session","version":3,"id":"big-head","timestamp":"2026-01-01T00:00:00Z",'
    (folder / "head.jsonl").write_bytes(head + b'"cwd":"/w","extra":"' + b"x" * BIG + b'"}')
    tracemalloc.start()
    try:
        with Catalog(tmp_path / "sessions", cache_dir=tmp_path / "cache") as catalog:
            catalog.scan(tools="now")
            peak = tracemalloc.get_traced_memory()[1]
            [summary] = catalog.sessions()
            state = catalog.index.db.execute("SELECT max(length(state)) FROM files").fetchone()
    finally:
        tracemalloc.stop()
    assert (summary.id, summary.cwd, summary.first_message) == ("big-head", "/w", "(no messages)")
    assert summary.writing_in_progress and state[0] < 4096
    assert peak < BIG + 16 * 1024 * 1024, peak / 2**20
