"""`pitui prune` and `pitui restore`: a dry run changes nothing, a real run moves exactly the
selected files to the (fake freedesktop) trash, restore brings each back byte-identical, a
file being written is skipped."""

from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from denied_folders import deny

from pitui.cli import main
from pitui.core.changes.prune import parse_duration, parse_size
from pitui.core.errors import PituiError
from pitui.demo.generate import generate_varied_session, make_header, session_path, write_session

OLD = 1_600_000_000


@pytest.fixture
def store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home_trash: Path
) -> dict[str, list[Path]]:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    root = tmp_path / "agent" / "sessions"
    project = tmp_path / "project"
    project.mkdir()
    rng = random.Random(5)
    groups: dict[str, list[Path]] = {"empty": [], "full": [], "gone": []}
    ms = 1_750_000_000_000
    for i in range(3):
        header = make_header(rng, str(project), ms + i * 1000)
        groups["empty"].append(write_session(session_path(root, header), header, []))
    for i in range(4):
        header, entries = generate_varied_session(rng, str(project), start_ms=ms + i * 9_000_000)
        groups["full"].append(write_session(session_path(root, header), header, entries))
    for i in range(2):
        cwd = str(tmp_path / f"deleted-{i}")
        header, entries = generate_varied_session(rng, cwd, start_ms=ms + i * 7_000_000)
        groups["gone"].append(write_session(session_path(root, header), header, entries))
    for paths in groups.values():
        for path in paths:
            os.utime(path, (OLD, OLD))
    monkeypatch.chdir(project)
    return groups


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_dry_run_changes_no_byte_and_no_file(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(tmp_path / "agent")
    assert main(["prune", "--all", "--empty", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would move 3 sessions" in out
    assert main(["prune", "--all", "--cwd-missing", "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {s["path"] for s in data["selected"]} == {str(p) for p in store["gone"]}
    assert data["totalBytes"] == sum(p.stat().st_size for p in store["gone"])
    assert data["dryRun"] and data["moved"] == []
    assert _snapshot(tmp_path / "agent") == before
    assert not (tmp_path / "xdg-data" / "Trash").exists()


def test_real_run_moves_exactly_the_selection_and_restore_brings_it_back(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(tmp_path / "agent")
    selected = store["empty"]
    assert main(["prune", "--all", "--empty", "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(data["moved"]) == sorted(str(p) for p in selected)
    now = _snapshot(tmp_path / "agent")
    assert set(before) - set(now) == {str(p) for p in selected}
    assert all(now[p] == before[p] for p in now)
    trashed = sorted((tmp_path / "xdg-data" / "Trash" / "files").iterdir())
    assert len(trashed) == 3
    assert main(["restore", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert sorted(t["original"] for t in listed) == sorted(str(p) for p in selected)
    assert main(["restore", listed[0]["id"], listed[1]["original"]]) == 0
    assert main(["restore", listed[2]["id"][:30]]) == 0
    assert _snapshot(tmp_path / "agent") == {
        p: (b, m) for p, (b, m) in before.items()
    }  # byte-identical, same mtimes: renamed back
    assert list((tmp_path / "xdg-data" / "Trash" / "info").iterdir()) == []


def test_restore_refuses_to_overwrite(
    store: dict[str, list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store["gone"][0]
    content = path.read_bytes()
    assert main(["prune", "--all", "--cwd-missing", "--query", "", "--yes"]) == 0
    path.write_bytes(b"new\n")
    capsys.readouterr()
    assert main(["restore", str(path)]) == 1
    assert "a file is there now" in capsys.readouterr().err
    assert path.read_bytes() == b"new\n"
    path.unlink()
    assert main(["restore", str(path)]) == 0
    assert path.read_bytes() == content


def test_a_file_being_written_is_skipped(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    busy, recent = store["gone"]
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time; f=open(sys.argv[1],'ab'); print(1, flush=True); time.sleep(30)",
            str(busy),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"1"
        os.utime(busy, (OLD, OLD))
        recent.touch()
        assert main(["prune", "--all", "--cwd-missing", "--yes", "--json"]) == 0
    finally:
        holder.kill()
        holder.wait()
    data = json.loads(capsys.readouterr().out)
    assert data["moved"] == []
    assert {s["path"] for s in data["skipped"]} == {str(busy), str(recent)}
    assert busy.exists() and recent.exists()


def test_scope_and_criteria(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prune", "--empty", "--dry-run", "--json"]) == 0  # current folder
    assert len(json.loads(capsys.readouterr().out)["selected"]) == 3
    smallest_full = min(p.stat().st_size for p in store["full"] + store["gone"])
    assert (
        main(["prune", "--all", "--larger-than", str(smallest_full - 1), "--dry-run", "--json"])
        == 0
    )
    assert len(json.loads(capsys.readouterr().out)["selected"]) == 6
    assert main(["prune", "--all", "--older-than", "100000d", "--dry-run", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["selected"] == []
    assert main(["prune", "--all", "--older-than", "1d", "--empty", "--dry-run", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["selected"]) == 3


def test_refusals(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    assert main(["prune", "--all"]) == 1
    assert "say what to prune" in capsys.readouterr().err
    with open(os.devnull) as no_tty:
        monkeypatch.setattr(sys, "stdin", no_tty)
        assert main(["prune", "--all", "--empty"]) == 1
    assert "run with --yes" in capsys.readouterr().err
    assert all(p.exists() for p in store["empty"])
    assert main(["prune", "--all", "--older-than", "soon"]) == 2
    assert main(["restore"]) == 1
    assert main(["restore", "nothing-like-it"]) == 1
    assert "no session in the trash" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["prune", "--older-than", "3x"],
        ["archive", "--older-than", "3x"],
        ["prune", "--larger-than", "5Q"],
        ["archive", "--larger-than", "5Q", "--dry-run"],
    ],
)
def test_a_bad_duration_or_size_is_a_usage_error(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Exit status 2 and one line naming the option, as `pitui stats --since 3x` and a wrong
    option in argparse; nothing is selected or moved."""
    assert main([*argv, "--all", "--yes"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"pitui: {argv[1]}: not a ")
    assert all(p.exists() for paths in store.values() for p in paths)


def test_restore_help_says_any_pi_session_in_the_trash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`restore` finds every Pi session in the trash, not only those pitui put there."""
    with pytest.raises(SystemExit):
        main(["restore", "--help"])
    out = capsys.readouterr().out
    assert "bring back Pi sessions from the trash" in out and "pitui moved" not in out


def test_parsers() -> None:
    assert parse_duration("30d") == 30 * 86_400 and parse_duration("12h") == 43_200
    assert parse_duration("2w") == 14 * 86_400 and parse_duration("7") == 7 * 86_400
    assert parse_size("500K") == 512_000 and parse_size("1.5G") == 1_610_612_736
    assert parse_size("10MB") == 10 << 20 and parse_size("2048") == 2048
    for bad in ("", "x", "-1d"):
        with pytest.raises(PituiError):
            parse_duration(bad)


def _trashed(home_trash: Path, original: str, name: str = "s.jsonl") -> None:
    """A session in the trash whose `.trashinfo` gives `original` (percent-encoded) as its
    path, as another trash program may have written it."""
    (home_trash / "files").mkdir(parents=True, exist_ok=True)
    (home_trash / "info").mkdir(exist_ok=True)
    header = {"type": "session", "version": 3, "id": "trashed-1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/w"}  # fmt: skip
    (home_trash / "files" / name).write_text(json.dumps(header) + "\n")
    info = f"[Trash Info]\nPath={original}\nDeletionDate=2026-01-02T03:04:05\n"
    (home_trash / "info" / f"{name}.trashinfo").write_text(info)


def _restore_refused(capsys: pytest.CaptureFixture[str], home_trash: Path, said: str) -> None:
    assert main(["restore", "trashed-1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: cannot restore ") and err.count("\n") == 1, err
    assert said in err
    assert sorted(os.listdir(home_trash / "files")) == ["s.jsonl"]  # still in the trash
    assert sorted(os.listdir(home_trash / "info")) == ["s.jsonl.trashinfo"]


def test_restore_where_the_folder_is_now_a_file(
    home_trash: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "project").write_text("a file now")
    _trashed(home_trash, f"{tmp_path}/project/s.jsonl")
    _restore_refused(capsys, home_trash, "a file is where its folder was")
    assert (tmp_path / "project").read_text() == "a file now"


def test_restore_where_the_folder_is_gone_and_its_parent_read_only(
    home_trash: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    (tmp_path / "read-only").mkdir()
    _trashed(home_trash, f"{tmp_path}/read-only/gone/s.jsonl")
    deny(monkeypatch, tmp_path / "read-only", 0o555)
    _restore_refused(capsys, home_trash, "permission denied")


def test_restore_a_path_with_a_null_byte(
    home_trash: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _trashed(home_trash, f"{tmp_path}/a%00b.jsonl")
    _restore_refused(capsys, home_trash, "null byte")
    assert main(["restore", "--list"]) == 0
    assert "/a\u2400b.jsonl" in capsys.readouterr().out


def test_restore_a_name_over_255_bytes(
    home_trash: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _trashed(home_trash, f"{tmp_path}/{'a' * 300}/s.jsonl")
    _restore_refused(capsys, home_trash, "File name too long")
    _trashed(home_trash, f"{tmp_path}/{'a' * 300}.jsonl")
    _restore_refused(capsys, home_trash, "File name too long")


def test_prune_with_nothing_selected_says_so_without_a_terminal(
    store: dict[str, list[Path]], capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    with open(os.devnull) as no_tty:
        monkeypatch.setattr(sys, "stdin", no_tty)
        assert main(["prune", "--all", "--query", "nothing-matches-this"]) == 0
    assert capsys.readouterr() == ("no session matches: nothing to move\n", "")


def _trash_entries(home_trash: Path) -> tuple[list[str], list[str]]:
    files = sorted(p.name for p in (home_trash / "files").iterdir())
    infos = sorted(p.name.removesuffix(".trashinfo") for p in (home_trash / "info").iterdir())
    return files, infos


def test_two_prunes_at_once_leave_nothing_behind(
    store: dict[str, list[Path]],
    home_trash: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Another prune trashes the first file just as this one moves it (between the trash
    entry's creation and the move): it is moved once, and this prune says what happened."""
    from pitui.core.changes.trash import trash_session

    first = store["empty"][0]
    real_link, real_rename = os.link, os.rename

    def other_prune_first(real: Any) -> Any:
        def call(source: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
            if os.fsdecode(source) == str(first) and not other:
                other.append(first)
                monkeypatch.setattr(os, "link", real_link)
                monkeypatch.setattr(os, "rename", real_rename)
                trash_session(first)
            return real(source, target, *args, **kwargs)

        return call

    other: list[Path] = []
    monkeypatch.setattr(os, "link", other_prune_first(real_link))
    monkeypatch.setattr(os, "rename", other_prune_first(real_rename))
    assert main(["prune", "--all", "--empty", "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert other == [first]
    assert sorted(data["moved"]) == sorted(str(p) for p in store["empty"][1:])
    assert data["failed"] == []
    [skipped] = data["skipped"]
    assert skipped == {
        "path": str(first),
        "reason": f"{first} was moved or deleted by another program meanwhile",
    }
    files, infos = _trash_entries(home_trash)
    assert files == infos and len(files) == 3  # each file once, no orphan .trashinfo


def test_a_full_trash_leaves_no_empty_trashinfo(
    store: dict[str, list[Path]],
    home_trash: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The disk is full (a faked ENOSPC on every write into the trash): nothing is moved,
    nothing is left in the trash, and each failure is said."""
    real_write = os.write

    def full(fd: int, data: Any) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(home_trash)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", full)
        assert main(["prune", "--all", "--empty", "--yes"]) == 1
    out = capsys.readouterr().out
    for path in store["empty"]:
        assert path.exists()
        assert f"failed {path}: cannot move {path} to the trash: No space left on device" in out
    assert _trash_entries(home_trash) == ([], [])
