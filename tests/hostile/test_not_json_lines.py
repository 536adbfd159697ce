"""A line that cannot be JSON (a run of zeros left by a crash, however long) is skipped as
malformed without ever being held whole: reading and indexing stay in constant memory, and
say what they would say of the same line were it short."""

from __future__ import annotations

import errno
import io
import json
import subprocess
import sys
import tracemalloc
from dataclasses import fields
from pathlib import Path

import pytest

from pitui.core import regular_file
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan import lines
from pitui.core.format.jsonline import cannot_be_json
from pitui.core.session.session import Session

LONG = 64 * 1024 * 1024  # past every buffer: the catalog's 4 MB, the reader's 16 MB
STAMP = "2026-01-01T00:00:00.000Z"


def _line(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode() + b"\n"


HEADER = _line({"type": "session", "version": 3, "id": "s1", "timestamp": STAMP, "cwd": "/w"})
USER = _line({"type": "message", "id": "u1", "parentId": None, "timestamp": STAMP,
              "message": {"role": "user", "content": "before the zeros", "timestamp": 1}})  # fmt: skip
REPLY = _line({"type": "message", "id": "a1", "parentId": "u1", "timestamp": STAMP,
               "message": {"role": "assistant", "content": [{"type": "text", "text": "after"}],
                           "stopReason": "stop", "timestamp": 2}})  # fmt: skip


def _session(path: Path, zeros: int, *, tail: int = 0, junk: bytes = b"") -> Path:
    """A session with a line of `zeros` NUL bytes (then `junk`) between its two messages,
    and `tail` more NUL bytes after the last newline; long runs are written sparse."""
    with path.open("wb") as fh:
        fh.write(HEADER + USER)
        fh.seek(fh.tell() + zeros)
        fh.write(junk + b"\n" + REPLY)
        fh.truncate(fh.tell() + tail)
    return path


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (b"\x00\x00", True),
        (b"  \t\r\n\x00", True),
        (b"abc", True),
        (b"}", True),
        (b"{", False),
        (b"[", False),
        (b'"', False),
        (b"-1", False),
        (b"7", False),
        (b"true", False),
        (b"false", False),
        (b"null", False),
        (b"\x0b\x00", False),  # trim() takes \v for blank: the line may be blank
        (b"\xc2\xa0", False),  # a non-ASCII start may be a blank to trim() (NBSP)
        (b"   ", False),  # only whitespace so far: it does not tell
        (b"", False),
    ],
)
def test_what_cannot_be_json(start: bytes, expected: bool) -> None:
    assert cannot_be_json(start) is expected


def _reading(path: Path) -> tuple[list[tuple[str, str | None]], list[str], bool]:
    session = Session(path)
    shape = [(e.id, e.parent_id) for e in session.tree.entries]
    return shape, [d.reason for d in session.diagnostics], session.writing_in_progress


def test_reading_skips_a_long_line_of_zeros_unread(tmp_path: Path) -> None:
    long_path = _session(tmp_path / "long.jsonl", LONG, tail=LONG)
    short_path = _session(tmp_path / "short.jsonl", 10, tail=10)
    tracemalloc.start()
    try:
        shape, reasons, writing = _reading(long_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    short_shape, short_reasons, short_writing = _reading(short_path)
    assert shape == short_shape == [("u1", None), ("a1", "u1")]
    assert writing and short_writing  # the zeros after the last newline: a line being written
    assert reasons == ["not JSON (a line of 64.0 MB, not read)"]
    assert len(short_reasons) == 1  # the short one is parsed, and refused as Pi refuses it
    assert peak < 24 * 1024 * 1024, peak / 2**20  # one read buffer (16 MB), never the line


def test_commands_on_a_file_of_zeros_stay_small(tmp_path: Path) -> None:
    path = _session(tmp_path / "zeros.jsonl", 4 * LONG, tail=4 * LONG)
    child = (
        "import contextlib, io, json, resource, sys\n"
        "from pitui.cli import main\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    code = main(sys.argv[1:])\n"
        "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024\n"
        "print(json.dumps([code, out.getvalue(), grown]))\n"
    )
    for command in (["tree", str(path)], ["context", str(path)]):
        args = [sys.executable, "-c", child, *command]
        result = subprocess.run(args, capture_output=True, text=True, timeout=60)
        code, out, grown = json.loads(result.stdout)
        assert code == 0, result.stderr
        assert "after" in out and "before the zeros" in out
        assert grown < 64 * 1024 * 1024, f"{command[0]}: grew {grown / 2**20:.0f} MB"


def _summaries(root: Path, cache: Path) -> list[dict[str, object]]:
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan(tools="now")
        found = catalog.sessions()
    ignored = {"path", "size", "mtime_ns", "modified_ms", "_times"}  # _times: of the last two
    return [{f.name: getattr(s, f.name) for f in fields(s) if f.name not in ignored} for s in found]


@pytest.mark.parametrize("junk", [b"", b"x\ry"])
def test_indexing_counts_a_long_line_of_zeros_as_a_short_one(tmp_path: Path, junk: bytes) -> None:
    """Listed as Pi lists it: the line is malformed (a lone CR splits it in two lines, for
    Pi's readline, so such a line is read whole to be split exactly)."""
    long_root, short_root = tmp_path / "long" / "--w--", tmp_path / "short" / "--w--"
    long_root.mkdir(parents=True)
    short_root.mkdir(parents=True)
    _session(long_root / "s.jsonl", LONG, tail=LONG, junk=junk)
    _session(short_root / "s.jsonl", 10, tail=10, junk=junk)
    tracemalloc.start()
    try:
        listed = _summaries(long_root.parent, tmp_path / "cache-long")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert listed == _summaries(short_root.parent, tmp_path / "cache-short")
    [summary] = listed
    assert summary["message_count"] == 2
    assert summary["malformed_lines"] == (2 if not junk else 3)  # the tail is one too
    assert summary["writing_in_progress"] is True
    if not junk:  # else the line is held, as before: once, in one piece
        assert peak < 24 * 1024 * 1024, peak / 2**20


def test_line_reader_ends_after_the_unread_tail(tmp_path: Path) -> None:
    path = tmp_path / "tail.bin"
    path.write_bytes(b"{}\n")
    with path.open("r+b") as fh:
        fh.truncate(3 + 2 * lines.CHUNK + 5)
    with path.open("rb") as fh:
        reader = lines.LineReader(fh, 0)
        assert [data for data, _ in reader] == [b"{}"]
    assert reader.tail == lines.NOT_JSON
    assert reader.end == 3 + 2 * lines.CHUNK + 5


class _Unreadable(io.BytesIO):
    def read(self, size: int | None = -1) -> bytes:
        raise MemoryError


def test_a_file_too_large_for_memory_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.jsonl"
    path.write_bytes(HEADER)
    monkeypatch.setattr(regular_file.os, "fdopen", lambda fd, mode: _closing(fd))
    with pytest.raises(OSError) as raised:
        regular_file.read_regular(path)
    assert raised.value.errno == errno.ENOMEM
    assert str(raised.value) == f"[Errno 12] too large to read into memory: '{path}'"


def _closing(fd: int) -> _Unreadable:
    regular_file.os.close(fd)
    return _Unreadable()


def test_du_of_a_file_too_large_for_memory_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitui.cli import main

    path = tmp_path / "big.jsonl"
    path.write_bytes(HEADER)
    monkeypatch.setattr(regular_file.os, "fdopen", lambda fd, mode: _closing(fd))
    assert main(["du", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"pitui: cannot read {path}: too large to read into memory\n"


def test_running_out_of_memory_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitui import cli
    from pitui.commands import du

    def exhausted(args: object) -> int:
        raise MemoryError

    monkeypatch.setattr(du, "run", exhausted)
    assert cli.main(["du", "x.jsonl"]) == 1
    assert capsys.readouterr().err == "pitui: out of memory\n"
