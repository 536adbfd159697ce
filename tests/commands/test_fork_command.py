"""`pitui fork` on the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session


@pytest.fixture
def session(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(5))
    return write_session(tmp_path / "src" / "s.jsonl", header, entries)


def test_fork_prints_the_new_path(session: Path, capsys: pytest.CaptureFixture) -> None:
    leaf = Session(session).tree.entries[5].id
    assert main(["fork", str(session), "--leaf", leaf]) == 0
    created = Path(capsys.readouterr().out.strip())
    assert created.parent == session.parent and created.name.endswith(".jsonl")
    assert Session(created).context().to_json() == Session(session).context(leaf).to_json()


def test_fork_json_and_session_dir(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    leaf = Session(session).tree.entries[-1].id
    assert main(["fork", str(session), "--leaf", leaf, "--session-dir", str(tmp_path / "o")]) == 0
    capsys.readouterr()
    assert main(["fork", str(session), "--leaf", leaf, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert Path(answer["path"]).exists() and Session(answer["path"]).id == answer["id"]
    assert len(list((tmp_path / "o").glob("*.jsonl"))) == 1


def test_fork_errors_are_one_line(session: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["fork", str(session), "--leaf", "zzz"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: no entry with id 'zzz'") and err.count("\n") == 1
    assert main(["fork", str(session.parent / "missing.jsonl"), "--leaf", "a"]) == 1
    assert capsys.readouterr().err.startswith("pitui: ")


def test_printed_path_is_inert(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    header, entries = generate_varied_session(random.Random(6))
    source = write_session(tmp_path / "evil\x1b[31m\x07" / "s.jsonl", header, entries)
    leaf = Session(source).tree.entries[5].id
    assert main(["fork", str(source), "--leaf", leaf]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and out.strip().endswith(".jsonl")
