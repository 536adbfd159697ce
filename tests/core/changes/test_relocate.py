"""Moving sessions with their project folder: the header's cwd rewritten, every other byte
kept, never over a file, and no line another writer appends lost while it moves."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.changes import relocate
from pitui.core.changes.move_file import TargetExists
from pitui.core.changes.relocate import (
    Relocation,
    check_folders,
    moved_cwd,
    plan,
    with_new_cwd,
)
from pitui.core.errors import PituiError, UsageError
from pitui.demo.generate import generate_varied_session, write_session

OLD = 1_600_000_000
LINE = b'{"type":"custom","customType":"x","id":"feedf00d","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z"}\n'


def _session(root: Path, cwd: str, seed: int = 1) -> Path:
    header, entries = generate_varied_session(random.Random(seed), cwd)
    name = f"2026-01-0{seed}T00-00-00-000Z_{header['id']}.jsonl"
    path = write_session(project_dir(root, cwd) / name, header, entries)
    os.utime(path, (OLD, OLD))
    return path


def _append(path: Path, data: bytes = LINE) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)  # as Pi's appendFileSync
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _one(root: Path, path: Path, old: str, new: str) -> Relocation:
    [move] = plan([(str(path), old)], old, new, root)
    return move


def test_only_the_header_cwd_changes() -> None:
    data = (
        b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/a/b","x":{"cwd":"/a/b"}}\n'
        b'{"type":"message","cwd":"/a/b"}\r\n'
    )
    assert with_new_cwd(data, '/n "q"') == (
        b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/n \\"q\\"","x":{"cwd":"/a/b"}}\n'
        b'{"type":"message","cwd":"/a/b"}\r\n'
    )
    spaced = b'\n  { "type" : "session" , "cwd" : "/a" , "cwd" : "/b" }\r\nrest'
    assert (
        with_new_cwd(spaced, "/c")
        == b'\n  { "type" : "session" , "cwd" : "/a" , "cwd" : "/c" }\r\nrest'
    )
    for bad in (b'{"type":"message","cwd":"/a"}\n', b'{"type":"session","id":"s"}\n', b"\n\n"):
        with pytest.raises(PituiError):
            with_new_cwd(bad, "/c")


def test_a_parent_session_the_move_names_anew_keeps_every_other_byte() -> None:
    data = (
        b'{"type":"session","cwd":"/a","parentSession":"/s/--a--/p.jsonl", "parentSession" :'
        b' "/s/--a--/q.jsonl" ,"x":1}\n{"type":"message","parentSession":"/s/--a--/q.jsonl"}\n'
    )
    moved = {"/s/--a--/q.jsonl": "/s/--n--/q.jsonl"}.get
    assert with_new_cwd(data, "/n", moved) == (  # the last one, as JSON.parse keeps
        b'{"type":"session","cwd":"/n","parentSession":"/s/--a--/p.jsonl", "parentSession" :'
        b' "/s/--n--/q.jsonl" ,"x":1}\n{"type":"message","parentSession":"/s/--a--/q.jsonl"}\n'
    )
    assert with_new_cwd(data, "/n", {}.get) == with_new_cwd(data, "/n")


def test_parents_move_before_their_forks(tmp_path: Path) -> None:
    """Forks listed first, and a parentSession cycle (never written by Pi) still ends."""
    root = tmp_path / "sessions"
    paths = [_session(root, "/old", seed) for seed in (1, 2, 3, 4)]
    parent_of = {0: 1, 1: 2, 3: 3}  # 0 forks 1 forks 2; 3 names itself
    for child, parent in parent_of.items():
        lines = paths[child].read_bytes().split(b"\n", 1)
        header = lines[0].replace(b',"cwd"', b',"parentSession":"%s","cwd"' % bytes(paths[parent]))
        paths[child].write_bytes(header + b"\n" + lines[1])
    moves = plan([(str(p), "/old") for p in paths], "/old", "/new", root)
    assert [m.source for m in relocate.parents_first(moves)] == [paths[i] for i in (2, 1, 0, 3)]
    link = tmp_path / "link"
    link.symlink_to(root)
    parents = relocate.NewParents()
    parents.add(relocate.path_key(str(paths[2])), Path("/x/new.jsonl"))
    assert parents(str(link / paths[2].parent.name / paths[2].name)) == "/x/new.jsonl"
    assert parents("relative/" + paths[2].name) is None and parents(str(paths[1])) is None


def test_which_cwds_move() -> None:
    assert moved_cwd("/a/b", "/a/b", "/n") == "/n"
    assert moved_cwd("/a/b/c/d", "/a/b", "/n") == "/n/c/d"
    assert moved_cwd("/a/b/./c/", "/a/b", "/n") == "/n/c"
    assert moved_cwd("/a/bc", "/a/b", "/n") is None
    assert moved_cwd("", "/a/b", "/n") is None
    for old, new in (("/a", "/a"), ("/a", "/a/b"), ("/a/b", "/a"), ("/", "/x"), ("/x", "")):
        with pytest.raises(UsageError):
            check_folders(old, new)


def test_a_move_and_its_way_back_restore_every_byte(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    path = _session(root, "/home/dev/old")
    original = path.read_bytes()
    done = relocate.relocate(_one(root, path, "/home/dev/old", "/home/dev/new"))
    assert done.target == project_dir(root, "/home/dev/new") / path.name and done.note is None
    assert not path.exists() and list(path.parent.iterdir()) == []  # the folder stays
    moved = done.target.read_bytes()
    assert moved.split(b"\n", 1)[1] == original.split(b"\n", 1)[1]
    assert b'"cwd":"/home/dev/new"' in moved.split(b"\n", 1)[0]
    assert os.stat(done.target).st_mtime == OLD  # Pi orders listAll by mtime
    back = relocate.relocate(_one(root, done.target, "/home/dev/new", "/home/dev/old"))
    assert back.target == path and path.read_bytes() == original


def test_never_over_a_file(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    path = _session(root, "/old")
    move = _one(root, path, "/old", "/new")
    move.target.parent.mkdir(parents=True)
    move.target.write_bytes(b"someone else's\n")
    with pytest.raises(TargetExists):
        relocate.relocate(move)
    assert move.target.read_bytes() == b"someone else's\n"
    assert path.exists() and sorted(p.name for p in move.target.parent.iterdir()) == [path.name]


def test_a_line_appended_before_the_check_is_moved_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "sessions"
    path = _session(root, "/old")
    expected = path.read_bytes() + LINE
    real = relocate._unchanged_at
    calls: list[int] = []

    def appended_first(*args: object) -> bool:
        if not calls:
            _append(path)  # after the copy was written, before the check
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(relocate, "_unchanged_at", appended_first)
    done = relocate.relocate(_one(root, path, "/old", "/new"))
    assert len(calls) == 2  # the first copy was dropped, the second taken
    assert done.target.read_bytes() == with_new_cwd(expected, "/new")
    assert not path.exists() and _no_temporaries(root)


def test_a_line_appended_after_the_check_is_moved_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Appended in the last moment before the original is set aside: the held descriptor
    sees it, the original goes back and the move starts again."""
    root = tmp_path / "sessions"
    path = _session(root, "/old")
    expected = path.read_bytes() + LINE
    real = relocate.rename_never_over
    calls: list[Path] = []

    def appended_first(source: Path, target: Path) -> None:
        if not calls:
            _append(source)
        calls.append(source)
        real(source, target)

    monkeypatch.setattr(relocate, "rename_never_over", appended_first)
    done = relocate.relocate(_one(root, path, "/old", "/new"))
    assert calls[0] == path and calls[1] != path and calls[2] == path  # aside, back, aside
    assert done.target.read_bytes() == with_new_cwd(expected, "/new")
    assert not path.exists() and _no_temporaries(root)


def test_a_session_that_keeps_growing_is_left_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "sessions"
    path = _session(root, "/old")
    before = path.read_bytes()
    real = relocate._unchanged_at

    def always_appended(*args: object) -> bool:
        _append(path)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(relocate, "_unchanged_at", always_appended)
    move = _one(root, path, "/old", "/new")
    with pytest.raises(PituiError, match="kept changing"):
        relocate.relocate(move)
    assert path.read_bytes() == before + LINE * relocate.ATTEMPTS  # every line kept
    assert not move.target.exists() and _no_temporaries(root)


def test_in_a_custom_session_dir_the_file_keeps_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    path = _session(tmp_path / "made", "/old").rename(flat / "s.jsonl")
    original = path.read_bytes()
    [move] = plan([(str(path), "/old")], "/old", "/new", tmp_path / "sessions", flat)
    assert move.in_place
    real = relocate.exchange
    calls: list[int] = []

    def appended_first(first: Path, second: Path) -> bool:
        if not calls:
            _append(path)  # just before the swap: the old file then holds a line the new lacks
        calls.append(1)
        return real(first, second)

    monkeypatch.setattr(relocate, "exchange", appended_first)
    relocate.relocate(move)
    assert len(calls) == 3  # swapped, swapped back, swapped again
    assert path.read_bytes() == with_new_cwd(original + LINE, "/new")
    assert sorted(p.name for p in flat.iterdir()) == ["s.jsonl"]
    monkeypatch.setattr(relocate, "exchange", real)
    [back] = plan([(str(path), "/new")], "/new", "/old", tmp_path / "sessions", flat)
    relocate.relocate(back)
    assert path.read_bytes() == original + LINE


def _no_temporaries(root: Path) -> bool:
    return not [p for p in root.rglob("*") if p.name.startswith(".")]


def test_a_header_holding_an_integer_python_cannot_read_moves() -> None:
    """An integer of 4,401 digits in the header (JSON.parse reads it, as Infinity) was "its
    header cannot be read" (Python's int() of text stops at 4,300 digits)."""
    huge = b"1" + b"0" * 4400
    data = b'{"type":"session","id":"s","n":' + huge + b',"cwd":"/a"}\n'
    assert with_new_cwd(data, "/b") == b'{"type":"session","id":"s","n":' + huge + b',"cwd":"/b"}\n'
