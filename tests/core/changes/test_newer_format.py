"""A session whose header names a version above 3 is read as far as pitui can and never
written: no label, name or context edit (trash may still move it)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.core.changes import trash
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session

OLD = 1_600_000_000


@pytest.fixture
def newer(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(3))
    header["version"] = 4
    path = write_session(tmp_path / "s.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    return path


def test_read_as_far_as_pitui_can(newer: Path) -> None:
    session = Session(newer)
    assert len(session.tree.entries) == len(newer.read_text().splitlines()) - 1


@pytest.mark.parametrize(
    "command",
    [
        ["label", "{file}", "{target}", "mine"],
        ["name", "{file}", "new name"],
        ["context-edit", "--omit", "{file}", "{target}"],
    ],
)
def test_writes_are_refused(
    newer: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    target = next(e.id for e in Session(newer).tree.entries if e.role == "user")
    before = newer.read_bytes()
    args = [a.format(file=newer, target=target) for a in command]
    assert main([*args, "--force"]) == 1
    assert newer.read_bytes() == before
    err = capsys.readouterr().err
    assert err == (
        "pitui: s.jsonl is in a newer session format (version 4) than pitui writes: "
        "nothing was changed\n"
    )


def test_trash_still_moves_it(newer: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    monkeypatch.setattr(trash, "send2trash", lambda p: (taken.append(p), os.rename(p, p + "~")))
    assert main(["trash", str(newer)]) == 0
    assert taken == [str(newer)]


def test_a_version_3_session_is_still_written(newer: Path) -> None:
    lines = newer.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 3
    newer.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    os.utime(newer, (OLD, OLD))
    assert main(["name", str(newer), "fine", "--force"]) == 0
    assert json.loads(newer.read_text().splitlines()[-1])["name"] == "fine"
