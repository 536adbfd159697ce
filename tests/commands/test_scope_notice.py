"""A scope that narrows says so: `--session-dir DIR` read for this folder, and the archive
(`--archived`, `in:archive`), keep the sessions started here, and list, grep, du and stats
say on stderr (one line) how many they left out and that `--all` includes them; their
standard output is what it was."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.demo.generate import generate_varied_session, session_path, write_session

LEFT_OUT = (
    "pitui: left out 2 sessions {of} started in other folders than this one (--all includes them)\n"
)
WORD = "the"  # said in every generated session


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("PI_CODING_AGENT_SESSION_DIR", "PITUI_ARCHIVE_DIR"):
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def _write_sessions(root: Path, here: Path, flat: bool) -> None:
    """Two sessions of other folders and one of `here`, in `root` (flat: as a shared
    `--session-dir`; else in Pi's project folders)."""
    for i, cwd in enumerate(["/elsewhere/a", "/elsewhere/b", str(here)]):
        header, entries = generate_varied_session(random.Random(i), cwd, start_ms=1_750_000_000_000)
        path = root / f"s{i}.jsonl" if flat else session_path(root, header)
        write_session(path, header, entries)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    capsys.readouterr()
    main(list(argv))
    said = capsys.readouterr()
    return said.out, said.err


@pytest.mark.parametrize(
    "argv",
    [["list"], ["list", "--json"], ["grep", WORD], ["grep", WORD, "--json"], ["du"], ["stats"]],
)
def test_a_shared_session_dir_read_here_says_what_it_left_out(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    shared = tmp_path / "shared"
    _write_sessions(shared, here, flat=True)
    out, err = _run(capsys, *argv, "--session-dir", str(shared))
    assert err == LEFT_OUT.format(of="of the session folder")
    again, err_again = _run(capsys, *argv, "--session-dir", str(shared))  # a kept answer too
    assert (again, err_again) == (out, err)
    if "--json" in argv:
        found = json.loads(out)
        assert found and all(item["path"].endswith("s2.jsonl") for item in found)
    everything, quiet = _run(capsys, *argv, "--all", "--session-dir", str(shared))
    assert quiet == "" and everything != out


def test_du_here_counts_only_this_folders_sessions_of_a_shared_dir(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "shared"
    _write_sessions(shared, here, flat=True)
    out, _ = _run(capsys, "du", "--json", "--session-dir", str(shared))
    assert [s["path"] for s in json.loads(out)["largest"]] == [str(shared / "s2.jsonl")]


def test_pis_own_folder_as_session_dir_leaves_nothing_out(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "agent" / "sessions"
    _write_sessions(root, here, flat=False)
    (own,) = {p.parent for p in root.glob("*/*.jsonl") if p.parent.name.endswith("-here--")}
    for argv in (["list"], ["grep", WORD], ["du"], ["stats"]):
        assert _run(capsys, *argv, "--session-dir", str(own))[1] == "", argv
        assert _run(capsys, *argv)[1] == "", argv  # Pi's list(cwd): nothing said


@pytest.mark.parametrize("argv", [["list", "--archived"], ["list", "in:archive"], ["grep", WORD, "--archived"]])  # fmt: skip
def test_the_archive_read_here_says_what_it_left_out(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _write_sessions(tmp_path / "agent" / "sessions-archive", here, flat=False)
    out, err = _run(capsys, *argv, "--json")
    assert err == LEFT_OUT.format(of="of the archive")
    assert [item["path"] for item in json.loads(out)] and all(
        "-here--" in item["path"] for item in json.loads(out)
    )
    assert _run(capsys, *argv, "--all", "--json")[1] == ""


@pytest.mark.parametrize("command", ["prune", "archive"])
def test_a_selection_of_a_shared_dir_read_here_says_what_it_left_out(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    shared = tmp_path / "shared"
    _write_sessions(shared, here, flat=True)
    argv = [command, "--larger-than", "1", "--dry-run", "--session-dir", str(shared)]
    out, err = _run(capsys, *argv)
    assert err == LEFT_OUT.format(of="of the session folder")
    assert "s2.jsonl" in out and "s0.jsonl" not in out
    out, err = _run(capsys, *argv, "--all")
    assert err == "" and "s0.jsonl" in out
