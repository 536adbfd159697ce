"""A session kept elsewhere and linked into Pi's session folder (Pi and pitui list it) is
refused by every command that takes a session file away, as `pitui trash` refused it: moved,
the link (relative) pointed nowhere, and the session left Pi's list, pitui's and the
archive, `pitui unarchive` unable to find it (`archive`); or the link became a copy with a
new cwd and the file kept elsewhere was no longer the session (`move`)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.demo.generate import generate_varied_session, session_path, write_session

OLD = 1_600_000_000


@pytest.fixture
def linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home_trash: Path) -> Path:
    """`sessions/--<project>--/link.jsonl -> ../../kept/real.jsonl`, an archive three
    folders deep (where the moved relative link pointed nowhere); returns the link."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PITUI_ARCHIVE_DIR", str(tmp_path / "a" / "b" / "c"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    header, entries = generate_varied_session(
        random.Random(3), str(project), start_ms=1_750_000_000_000
    )
    placed = session_path(agent / "sessions", header)
    real = write_session(agent / "kept" / "real.jsonl", header, entries)
    link = placed.parent / "link.jsonl"
    link.parent.mkdir(parents=True)
    link.symlink_to(Path("..") / ".." / "kept" / "real.jsonl")
    for path in (real, link):
        os.utime(path, (OLD, OLD), follow_symlinks=False)
    return link


def _state(link: Path) -> tuple[str, bytes, list[str]]:
    """The link's target, the bytes it reaches, and every file under the test's folder."""
    top = link.parents[3]
    files = sorted(str(p.relative_to(top)) for p in top.rglob("*") if p.is_file())
    return os.readlink(link), link.read_bytes(), files


def _listed(capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["list", "--json"]) == 0
    return [d["path"] for d in json.loads(capsys.readouterr().out)]


@pytest.mark.parametrize(
    ("command", "action"),
    [
        (["archive", "--yes", "{link}"], "archive"),
        (["archive", "--yes", "--older-than", "1d"], "archive"),
        (["move", "--yes", "{project}", "{project}-moved"], "move"),
        (["prune", "--yes", "--older-than", "1d"], "trash"),
    ],
)
def test_a_linked_session_is_refused_with_one_line_and_left_in_place(
    linked: Path, capsys: pytest.CaptureFixture[str], command: list[str], action: str
) -> None:
    assert _listed(capsys) == [str(linked)]
    before = _state(linked)
    project = os.getcwd()
    args = [a.format(link=linked, project=project) for a in command]
    capsys.readouterr()
    assert main(args) == 1
    out = capsys.readouterr().out
    said = f"cannot {action} {linked}: not a regular file (a symbolic link)"
    assert [line for line in out.splitlines() if said in line] == [f"failed {linked}: {said}"]
    assert _state(linked) == before
    assert _listed(capsys) == [str(linked)]


def test_trash_says_what_it_is(linked: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _state(linked)
    assert main(["trash", str(linked)]) == 1
    said = f"pitui: cannot trash {linked}: not a regular file (a symbolic link)\n"
    assert capsys.readouterr().err == said
    assert _state(linked) == before
