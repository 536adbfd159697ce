"""The reader on every kind of bad input, and incremental reads."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from entry_builders import header
from hypothesis import given, settings
from hypothesis import strategies as st
from in_place import edit_in_place

from pitui.core.session import reader as reader_module
from pitui.core.session.reader import NotASession, SessionReader
from pitui.core.session.source import LineSource

HEADER = header()


def entry(i: int, parent: int | None = None, **extra: object) -> dict:
    return {
        "type": "message",
        "id": f"e{i:07d}",
        "parentId": None if parent is None else f"e{parent:07d}",
        "timestamp": f"2025-01-01T00:00:{i % 60:02d}.000Z",
        "message": {"role": "user", "content": f"hello {i}"},
        **extra,
    }


def line(value: object) -> bytes:
    return (json.dumps(value) + "\n").encode()


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_reads_entries_with_line_numbers_and_offsets(tmp_path: Path) -> None:
    data = line(HEADER) + line(entry(1)) + b"\n" + line(entry(2, 1))
    batch = SessionReader(write(tmp_path / "s.jsonl", data)).read()
    assert [e.id for e in batch.entries] == ["e0000001", "e0000002"]
    assert [e.line for e in batch.entries] == [2, 4]
    assert batch.entries[1].offset == data.index(b'{"type": "message", "id": "e0000002"')


def test_malformed_lines_become_diagnostics(tmp_path: Path) -> None:
    data = line(HEADER) + b"{not json\n" + line(entry(1)) + b"[1, 2]\n"
    reader = SessionReader(write(tmp_path / "s.jsonl", data))
    batch = reader.read()
    assert [e.id for e in batch.entries] == ["e0000001"]
    assert [(d.line, d.offset) for d in batch.diagnostics] == [
        (2, len(line(HEADER))),
        (4, data.index(b"[1, 2]")),
    ]
    assert "not a JSON object" in batch.diagnostics[1].reason


def test_invalid_utf8_decodes_as_replacement(tmp_path: Path) -> None:
    raw = (
        line(HEADER)
        + b'{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"x\xff"}}\n'
    )
    batch = SessionReader(write(tmp_path / "s.jsonl", raw)).read()
    assert batch.entries[0].raw["message"]["content"] == "x\ufffd"


def test_crlf_lines_are_accepted(tmp_path: Path) -> None:
    data = line(HEADER).replace(b"\n", b"\r\n") + line(entry(1)).replace(b"\n", b"\r\n")
    batch = SessionReader(write(tmp_path / "s.jsonl", data)).read()
    assert [e.id for e in batch.entries] == ["e0000001"]


def test_partial_last_line_is_not_an_entry_and_file_is_untouched(tmp_path: Path) -> None:
    whole = json.dumps(entry(2, 1)).encode()
    data = line(HEADER) + line(entry(1)) + whole[:-5]
    path = write(tmp_path / "s.jsonl", data)
    reader = SessionReader(path)
    assert [e.id for e in reader.read().entries] == ["e0000001"]
    assert reader.partial_bytes > 0 and not reader.unterminated
    assert path.read_bytes() == data
    with path.open("ab") as handle:
        handle.write(whole[-5:] + b"\n")
    assert [e.id for e in reader.refresh().entries] == ["e0000002"]
    assert reader.partial_bytes == 0


def test_complete_last_line_without_newline_is_an_entry_once(tmp_path: Path) -> None:
    """As Pi's loader: a last line that is a whole object is an entry. When the writer then
    ends it, the entry is not read twice; lines after it are read as usual."""
    data = line(HEADER) + line(entry(1)) + json.dumps(entry(2, 1)).encode()
    path = write(tmp_path / "s.jsonl", data)
    reader = SessionReader(path)
    assert [(e.id, e.line) for e in reader.read().entries] == [("e0000001", 2), ("e0000002", 3)]
    assert reader.unterminated and reader.partial_bytes == 0
    assert path.read_bytes() == data
    assert reader.refresh().entries == []
    with path.open("ab") as handle:
        handle.write(b"\n")
    batch = reader.refresh()
    assert batch.entries == [] and not batch.reset and not reader.unterminated
    with path.open("ab") as handle:
        handle.write(line(entry(3, 2)))
    assert [(e.id, e.line) for e in reader.refresh().entries] == [("e0000003", 4)]
    assert reader.refresh().entries == []


def test_completed_in_one_append_with_the_next_line(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + json.dumps(entry(1)).encode())
    reader = SessionReader(path)
    assert [e.id for e in reader.read().entries] == ["e0000001"]
    with path.open("ab") as handle:
        handle.write(b"\n" + line(entry(2, 1)))
    batch = reader.refresh()
    assert [e.id for e in batch.entries] == ["e0000002"] and not batch.reset


def test_unterminated_entry_extended_is_read_again(tmp_path: Path) -> None:
    """Text glued onto a whole last line makes it a different line (not JSON, for Pi
    too): the entry read from it must not stay."""
    path = write(
        tmp_path / "s.jsonl", line(HEADER) + line(entry(1)) + json.dumps(entry(2, 1)).encode()
    )
    reader = SessionReader(path)
    assert len(reader.read().entries) == 2
    with path.open("ab") as handle:
        handle.write(line(entry(3, 1)))
    batch = reader.refresh()
    assert batch.reset and [e.id for e in batch.entries] == ["e0000001"]
    assert len(batch.diagnostics) == 1 and batch.diagnostics[0].line == 3


def test_first_line_without_newline(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", json.dumps(HEADER).encode())
    reader = SessionReader(path)
    assert reader.read().entries == [] and reader.header == HEADER
    write(path, b'{"type":"session","id":"' + b"x" * 100_000)
    with pytest.raises(NotASession, match="first line is incomplete or too long"):
        SessionReader(path).read()


def test_huge_line(tmp_path: Path) -> None:
    big = entry(1)
    big["message"]["content"] = "x" * (20 * 1024 * 1024)
    batch = SessionReader(write(tmp_path / "s.jsonl", line(HEADER) + line(big))).read()
    assert len(batch.entries[0].raw["message"]["content"]) == 20 * 1024 * 1024


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty"),
        (b"\n\n", "no session header"),
        (b"\x00\x01\xff garbage\n", "no session header"),
        (line(entry(1)) + line(HEADER), "not a session header"),
        (line({"type": "session"}), "no string id"),
    ],
)
def test_not_a_session(tmp_path: Path, data: bytes, reason: str) -> None:
    with pytest.raises(NotASession, match=reason):
        SessionReader(write(tmp_path / "s.jsonl", data)).read()


def test_header_after_blank_and_malformed_lines(tmp_path: Path) -> None:
    batch = SessionReader(
        write(tmp_path / "s.jsonl", b"\n{bad\n" + line(HEADER) + line(entry(1)))
    ).read()
    assert [e.id for e in batch.entries] == ["e0000001"]


def test_refresh_reads_only_appended_bytes(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + line(entry(1)))
    reader = SessionReader(path)
    reader.read()
    offset = reader.offset
    with path.open("ab") as handle:
        handle.write(line(entry(2, 1)))
    batch = reader.refresh()
    assert not batch.reset
    assert [e.id for e in batch.entries] == ["e0000002"]
    assert batch.entries[0].offset == offset
    assert reader.refresh().entries == []


def test_shrunk_replaced_or_new_header_reloads_whole(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + line(entry(1)) + line(entry(2, 1)))
    reader = SessionReader(path)
    reader.read()
    path.write_bytes(line(HEADER) + line(entry(3)))
    batch = reader.refresh()
    assert batch.reset and [e.id for e in batch.entries] == ["e0000003"]
    replacement = write(tmp_path / "new.jsonl", line(HEADER) + line(entry(3)) + line(entry(4, 3)))
    os.replace(replacement, path)
    batch = reader.refresh()
    assert batch.reset and [e.id for e in batch.entries] == ["e0000003", "e0000004"]
    other = dict(HEADER, id="s2")
    data = line(other) + line(entry(3)) + line(entry(4, 3)) + line(entry(5, 4))
    with path.open("r+b") as handle:
        handle.write(data)
    batch = reader.refresh()
    assert batch.reset and reader.header["id"] == "s2"


def _whole(data: bytes, path: Path) -> list[dict]:
    path.write_bytes(data)
    try:
        return [e.raw for e in SessionReader(path).read().entries]
    except NotASession:
        return []


@settings(max_examples=60, deadline=None)
@given(
    body=st.lists(
        st.one_of(
            st.builds(lambda i: line(entry(i)), st.integers(0, 50)),
            st.binary(max_size=30),
            st.just(b"\r\n"),
            st.just(b"{\n"),
        ),
        max_size=12,
    ),
    cuts=st.lists(st.integers(0, 2000), max_size=6),
)
def test_chunked_appends_equal_one_whole_read(
    tmp_path_factory: pytest.TempPathFactory, body: list[bytes], cuts: list[int]
) -> None:
    folder = tmp_path_factory.mktemp("chunks")
    data = line(HEADER) + b"".join(body)
    expected = _whole(data, folder / "whole.jsonl")
    path = folder / "grown.jsonl"
    path.write_bytes(b"")
    reader = SessionReader(path)
    seen: list[dict] = []
    points = sorted({min(c, len(data)) for c in cuts} | {len(data)})
    start = 0
    for point in points:
        with path.open("ab") as handle:
            handle.write(data[start:point])
        start = point
        try:
            batch = reader.refresh()
        except NotASession:
            continue
        if batch.reset:
            seen = []
        seen.extend(e.raw for e in batch.entries)
    complete = data[: data.rfind(b"\n") + 1]
    assert seen == (_whole(complete, folder / "complete.jsonl") if complete != data else expected)


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=400))
def test_any_bytes_never_raise_anything_but_not_a_session(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("any") / "s.jsonl"
    path.write_bytes(line(HEADER) + data)
    SessionReader(path).read()
    path.write_bytes(data)
    with contextlib.suppress(NotASession):
        SessionReader(path).read()


def test_rewrite_that_grows_past_the_offset_reloads(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + line(entry(1)))
    reader = SessionReader(path)
    reader.read()
    path.write_bytes(line(HEADER) + line(entry(7)) + line(entry(8, 7)) + line(entry(9, 8)))
    batch = reader.refresh()
    assert batch.reset and [e.id for e in batch.entries] == ["e0000007", "e0000008", "e0000009"]


def test_lazy_entry_names_a_line_rewritten_in_place(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + line(entry(1)) + line(entry(2, 1)))
    entries = SessionReader(path).read().entries
    with path.open("r+b") as handle:  # same inode, other bytes at the same offsets
        handle.write(line(HEADER) + line(entry(7)) + line(entry(8, 7)))
    raw = entries[1].raw
    assert raw["id"] == "e0000002" and "changed on disk" in raw["pitui"]


def test_entries_read_their_own_inode_after_the_path_is_replaced(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", line(HEADER) + line(entry(1)))
    entries = SessionReader(path).read().entries
    os.replace(write(tmp_path / "new.jsonl", line(HEADER) + line(entry(5))), path)
    assert entries[0].raw["message"]["content"] == "hello 1"


def test_progress_reports_each_chunk_up_to_the_size(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(reader_module, "CHUNK_SIZE", 256)
    data = line(HEADER) + b"".join(line(entry(i, i - 1 if i else None)) for i in range(40))
    path = write(tmp_path / "s.jsonl", data + b'{"partial')
    seen: list[tuple[int, int]] = []
    SessionReader(path).read(lambda done, total: seen.append((done, total)))
    assert len(seen) > 5 and seen == sorted(seen)
    assert seen[-1] == (len(data), len(data) + len(b'{"partial'))


@settings(max_examples=40, deadline=None)
@given(
    pads=st.lists(st.integers(min_value=0, max_value=700), min_size=1, max_size=30),
    chunk=st.sampled_from([64, 100, 256, 1000]),
)
def test_small_chunks_read_what_one_chunk_reads(
    tmp_path_factory: pytest.TempPathFactory, pads: list[int], chunk: int
) -> None:
    """Lines cut by a chunk's end, lines longer than a chunk (the chunk doubles, then the
    reused buffer is used again), malformed and blank lines among them."""
    body = b""
    for i, pad in enumerate(pads):
        body += line(entry(i, i - 1 if i else None, pad="x" * pad))
        body += b"{bad\n" if pad % 7 == 0 else b"\n" if pad % 5 == 0 else b""
    path = tmp_path_factory.mktemp("chunks") / "s.jsonl"
    path.write_bytes(line(HEADER) + body + b'{"partial')
    whole = SessionReader(path).read()
    original = reader_module.CHUNK_SIZE
    reader_module.CHUNK_SIZE = chunk
    try:
        small = SessionReader(path)
        batch = small.read()
    finally:
        reader_module.CHUNK_SIZE = original
    assert [(e.id, e.line, e.offset) for e in batch.entries] == [
        (e.id, e.line, e.offset) for e in whole.entries
    ]
    assert [e.raw for e in batch.entries] == [e.raw for e in whole.entries]
    assert batch.diagnostics == whole.diagnostics and small.partial_bytes == len(b'{"partial')


def test_a_file_that_grew_after_its_size_was_taken_is_read_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The buffer is sized from the file's size; lines written after that are read too."""
    data = line(HEADER) + b"".join(line(entry(i, i - 1 if i else None)) for i in range(60))
    path = write(tmp_path / "s.jsonl", data + b'{"partial')
    whole = SessionReader(path).read()
    monkeypatch.setattr(reader_module, "CHUNK_SIZE", 1024)
    monkeypatch.setattr(LineSource, "size", lambda self: 300)  # taken before the rest came
    reads: list[int] = []
    read_into = LineSource.read_into

    def counted(self: LineSource, buffer: bytearray, start: int) -> int:
        reads.append(len(buffer))
        return read_into(self, buffer, start)

    monkeypatch.setattr(LineSource, "read_into", counted)
    grown = SessionReader(path)
    batch = grown.read()
    assert [(e.id, e.line, e.offset) for e in batch.entries] == [
        (e.id, e.line, e.offset) for e in whole.entries
    ]
    assert len(batch.entries) == 60 and grown.partial_bytes == len(b'{"partial')
    assert len(reads) <= len(data) // 1024 + 3  # whole chunks once the growth is seen


def test_same_size_edit_with_mtime_set_back_reloads(tmp_path: Path) -> None:
    """Not an append (the size is the same): read again whole, though the edit is far from
    the last bytes read and the mtime was set back (issue 25)."""
    lines = [line(entry(i, i - 1 if i else None)) for i in range(30)]
    path = write(tmp_path / "s.jsonl", line(HEADER) + b"".join(lines))
    reader = SessionReader(path)
    reader.read()
    edit_in_place(path, {b'"hello 3"': b'"HOWDY 3"'})
    batch = reader.refresh()
    assert batch.reset and batch.entries[3].raw["message"]["content"] == "HOWDY 3"
    with path.open("ab") as fh:
        fh.write(line(entry(30, 29)))
    batch = reader.refresh()
    assert not batch.reset and [e.id for e in batch.entries] == ["e0000030"]


def test_a_small_file_growing_while_read_takes_no_whole_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh while Pi writes: the buffer is sized to what is left to read, also once the
    file is seen to have grown during the read (it took a zeroed 16 MB chunk then)."""
    data = line(HEADER) + b"".join(line(entry(i, i - 1 if i else None)) for i in range(60))
    path = write(tmp_path / "s.jsonl", data)
    whole = SessionReader(path).read()
    real_stat = LineSource.stat
    stats: list[int] = []

    def taken_early(self: LineSource) -> object:  # the size seen before the rest came
        stat = real_stat(self)
        stats.append(stat.st_size)
        size = 300 if len(stats) == 1 else stat.st_size
        return SimpleNamespace(st_size=size, st_mtime_ns=stat.st_mtime_ns, st_ctime_ns=0)

    reads: list[int] = []
    read_into = LineSource.read_into

    def counted(self: LineSource, buffer: bytearray, start: int) -> int:
        reads.append(len(buffer))
        return read_into(self, buffer, start)

    monkeypatch.setattr(LineSource, "stat", taken_early)
    monkeypatch.setattr(LineSource, "read_into", counted)
    batch = SessionReader(path).read()
    assert [(e.id, e.line, e.offset, e.raw) for e in batch.entries] == [
        (e.id, e.line, e.offset, e.raw) for e in whole.entries
    ]
    assert len(reads) > 1 and max(reads) <= len(data) + 1


@pytest.mark.parametrize(
    "odd", [{"no": "type"}, {"type": 7, "id": "x7"}, {"type": "custom", "id": 5}, {"type": None}]
)
def test_a_lazy_entry_without_a_string_type_or_id_reads_its_own_line(
    tmp_path: Path, odd: dict[str, Any]
) -> None:
    """Its type reads as "?" and its id as none, so the line read again matched neither and
    the tree said it had changed on disk."""
    path = write(
        tmp_path / "s.jsonl", line(HEADER) + line(entry(1)) + json.dumps(odd).encode() + b"\n"
    )
    entries = SessionReader(path).read().entries
    assert entries[-1].raw == odd
