"""`pitui archive` / `unarchive`: the selected sessions move to the archive and back with the
same bytes, never over a file; across file systems a copy, fsync, compare, then unlink; a
session being written is skipped; the listing says which store each session is in."""

from __future__ import annotations

import errno
import json
import os
import random
import time
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.core.changes import move_file
from pitui.demo.generate import generate_varied_session, make_header, session_path, write_session

OLD = 1_600_000_000


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Path]]:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("PI_CODING_AGENT_SESSION_DIR", "PITUI_ARCHIVE_DIR"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "agent" / "sessions"
    project = tmp_path / "project"
    project.mkdir()
    rng = random.Random(7)
    groups: dict[str, list[Path]] = {"empty": [], "full": []}
    ms = 1_750_000_000_000
    for i in range(2):
        header = make_header(rng, str(project), ms + i * 1000)
        groups["empty"].append(write_session(session_path(root, header), header, []))
    for i in range(3):
        header, entries = generate_varied_session(rng, str(project), start_ms=ms + i * 9_000_000)
        groups["full"].append(write_session(session_path(root, header), header, entries))
    for paths in groups.values():
        for path in paths:
            os.utime(path, (OLD, OLD))
    monkeypatch.chdir(project)
    return groups


def _archived(tmp_path: Path, path: Path) -> Path:
    return tmp_path / "agent" / "sessions-archive" / path.parent.name / path.name


def _listing(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, str]:
    capsys.readouterr()
    assert main(["list", "--json", *args]) == 0
    return {d["path"]: d["store"] for d in json.loads(capsys.readouterr().out)}


def test_archive_and_unarchive_move_the_same_bytes_and_the_listing_follows(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p: p.read_bytes() for p in store["empty"]}
    ids = [json.loads(content.splitlines()[0])["id"] for content in before.values()]
    assert main(["archive", "--empty", "--yes"]) == 0
    assert "moved 2 to the archive" in capsys.readouterr().out
    for path, content in before.items():
        assert not path.exists()
        archived = _archived(tmp_path, path)
        assert archived.read_bytes() == content and archived.stat().st_mtime == OLD
    assert set(_listing(capsys).values()) == {"local"}
    assert _listing(capsys, "--archived") == {
        str(_archived(tmp_path, p)): "archive" for p in store["empty"]
    }
    assert _listing(capsys, "in:archive") == _listing(capsys, "--archived")
    assert _listing(capsys, '"in:archive"') == {}  # a quoted phrase is text, not the store
    assert len(_listing(capsys, "in:all")) == 5
    assert main(["unarchive", str(_archived(tmp_path, store["empty"][0])), "--yes"]) == 0
    assert main(["unarchive", ids[1][:30], "--yes"]) == 0
    assert {p: p.read_bytes() for p in store["empty"]} == before
    assert list((tmp_path / "agent" / "sessions-archive").rglob("*.jsonl")) == []


def _across_file_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renames between two folders fail as between two file systems (EXDEV); within one
    folder they work."""
    real = move_file.rename_no_replace

    def rename(first: Path, second: Path) -> bool:
        if Path(first).parent != Path(second).parent:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real(first, second)

    monkeypatch.setattr(move_file, "rename_no_replace", rename)


def test_across_file_systems_copy_fsync_compare_then_unlink(
    store: dict[str, list[Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = store["full"][0]
    content = source.read_bytes()
    calls: list[str] = []

    def spy(name: str, real: object) -> object:
        def call(*args: object, **kwargs: object) -> object:
            calls.append(f"unlink {args[0]}" if name == "unlink" else name)
            return real(*args, **kwargs)  # type: ignore[operator]

        return call

    _across_file_systems(monkeypatch)
    monkeypatch.setattr(os, "link", spy("link", os.link))
    monkeypatch.setattr(os, "fsync", spy("fsync", os.fsync))
    monkeypatch.setattr(os, "unlink", spy("unlink", os.unlink))
    monkeypatch.setattr(move_file, "_same_bytes", spy("compare", move_file._same_bytes))
    assert main(["archive", str(source), "--yes"]) == 0
    archived = _archived(tmp_path, source)
    assert not source.exists() and archived.read_bytes() == content
    assert archived.stat().st_mtime == OLD
    # the copy is fsynced, linked into place, compared, and only then the source (renamed
    # aside in its folder first) unlinked
    unlinked = [c for c in calls if c.startswith(f"unlink {source.parent}/.{source.name}.")]
    assert len(unlinked) == 1
    order = [calls.index(step) for step in ("fsync", "link", "compare", unlinked[0])]
    assert order == sorted(order)
    assert [p.name for p in archived.parent.iterdir()] == [archived.name]  # no temporary left


def test_a_line_appended_during_the_copy_goes_with_it(
    store: dict[str, list[Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = store["full"][1]
    content = source.read_bytes()
    real_chunks = move_file._chunks

    def appending_chunks(fd: int, end: int, start: int = 0):  # type: ignore[no-untyped-def]
        yield from real_chunks(fd, end, start)
        if start == 0:
            with open(source, "ab") as fh:  # another program appends while pitui copies
                fh.write(b'{"type":"custom"}\n')

    _across_file_systems(monkeypatch)
    monkeypatch.setattr(move_file, "_chunks", appending_chunks)
    assert main(["archive", str(source), "--yes"]) == 0
    assert not source.exists()
    assert _archived(tmp_path, source).read_bytes().startswith(content)
    assert _archived(tmp_path, source).read_bytes().endswith(b'{"type":"custom"}\n')


def test_a_source_rewritten_during_the_copy_stays_where_it_is(
    store: dict[str, list[Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = store["full"][1]
    real_chunks = move_file._chunks

    def rewriting_chunks(fd: int, end: int, start: int = 0):  # type: ignore[no-untyped-def]
        yield from real_chunks(fd, end, start)
        with open(source, "r+b") as fh:  # another program rewrites it in place
            fh.write(b"X")

    _across_file_systems(monkeypatch)
    monkeypatch.setattr(move_file, "_chunks", rewriting_chunks)
    assert main(["archive", str(source), "--yes"]) == 1
    assert "changed while it was copied" in capsys.readouterr().out
    assert source.exists()
    assert not _archived(tmp_path, source).exists()


def test_a_session_being_written_is_skipped_and_reported(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    busy = store["empty"][0]
    now = time.time()
    os.utime(busy, (now, now))
    assert main(["archive", *map(str, store["empty"]), "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moved"] == [str(store["empty"][1])]
    assert [s["path"] for s in data["skipped"]] == [str(busy)]
    assert "may be writing it" in data["skipped"][0]["reason"]
    assert busy.exists() and not _archived(tmp_path, busy).exists()


@pytest.mark.parametrize("command", ["archive", "prune"])
def test_a_dry_run_says_which_sessions_the_move_would_skip(
    store: dict[str, list[Path]],
    capsys: pytest.CaptureFixture[str],
    home_trash: Path,
    command: str,
) -> None:
    """As `pitui move --dry-run`: the session being written is listed with why the real run
    will skip it, and not counted in what would move; `--json` gives it in `skipped`, as the
    real run then reports it."""
    busy = store["empty"][0]
    now = time.time()
    os.utime(busy, (now, now))
    argv = [command, "--empty", "--dry-run"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"  would be skipped: {busy.name} was modified " in out
    assert "would move 1 session (" in out and "(1 skipped, above)" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dryRun"] and len(data["selected"]) == 2 and data["moved"] == []
    [skip] = data["skipped"]
    assert skip["path"] == str(busy) and "may be writing it" in skip["reason"]
    assert main([*argv, "--force", "--json"]) == 0  # --force: nothing is skipped
    assert json.loads(capsys.readouterr().out)["skipped"] == []
    assert all(p.exists() for p in store["empty"])
    assert main([command, "--empty", "--yes", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [s["path"] for s in result["skipped"]] == [str(busy)]
    assert result["moved"] == [str(store["empty"][1])]


def test_unarchive_never_moves_onto_an_existing_file(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store["full"][2]
    content = path.read_bytes()
    assert main(["archive", str(path), "--yes"]) == 0
    path.write_bytes(b"a new file in its place\n")
    capsys.readouterr()
    assert main(["unarchive", str(_archived(tmp_path, path)), "--yes"]) == 1
    out = capsys.readouterr().out
    assert "failed" in out and "exists" in out
    assert path.read_bytes() == b"a new file in its place\n"
    assert _archived(tmp_path, path).read_bytes() == content


def test_archive_never_moves_onto_an_existing_file(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store["full"][0]
    content = path.read_bytes()
    target = _archived(tmp_path, path)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"already here\n")
    assert main(["archive", str(path), "--yes"]) == 1
    assert path.read_bytes() == content and target.read_bytes() == b"already here\n"


def test_without_a_terminal_and_without_yes_it_refuses(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["archive", "--empty"]) == 1
    assert "no terminal to ask" in capsys.readouterr().err
    assert all(p.exists() for p in store["empty"])


def test_a_custom_session_dir_session_goes_back_to_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_ARCHIVE_DIR", str(tmp_path / "kept"))
    custom = tmp_path / "custom"
    header = make_header(random.Random(3), str(tmp_path), 1_750_000_000_000)
    path = write_session(custom / "one.jsonl", header, [])
    os.utime(path, (OLD, OLD))
    monkeypatch.chdir(tmp_path)
    assert main(["archive", "--session-dir", str(custom), "--empty", "--yes"]) == 0
    assert not path.exists()
    (archived,) = (tmp_path / "kept").rglob("*.jsonl")
    assert main(["unarchive", str(archived), "--yes"]) == 0
    assert path.exists() and list((tmp_path / "kept").rglob("*.*")) == []


def test_an_archive_inside_the_session_folder_is_refused(
    store: dict[str, list[Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PITUI_ARCHIVE_DIR", str(tmp_path / "agent" / "sessions" / "old"))
    assert main(["archive", "--empty", "--yes"]) == 1
    assert "overlap" in capsys.readouterr().err
    assert all(p.exists() for p in store["empty"])


def test_the_archive_messages_hint_lists_what_it_moved_from_any_folder(
    store: dict[str, list[Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    capsys.readouterr()
    assert main(["archive", "--empty", "--yes"]) == 0
    said = capsys.readouterr().out
    hint = said[said.index("(pitui ") + len("(pitui ") : said.index(";")]
    monkeypatch.chdir(tmp_path)  # another folder than the sessions'
    args = hint.split()[1:]  # "list --archived --all"
    assert hint.split()[0] == "list"
    assert set(_listing(capsys, *args)) == {str(_archived(tmp_path, p)) for p in store["empty"]}
