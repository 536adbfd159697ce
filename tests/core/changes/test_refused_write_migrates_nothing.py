"""A write refused leaves an old-format (v1/v2) file as it was: the request is checked against
the ids the migration gives (the ones pitui shows) before the file is rewritten. A label of an
id the file does not hold migrated the whole file to version 3, then said only "no entry with
id"; so did a context edit (`pitui label FILE WRONG_ID X`, audit 1 finding 13)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.core.session.session import Session
from pitui.demo.generate import write_session
from pitui.demo.legacy import generate_v1_session, generate_v2_session

OLD = 1_600_000_000  # nobody is writing it
ODD_VERSIONS = [-1, True, None, 0, 1]  # headers Pi migrates as v1 (read as pitui reads them)


def _v1(tmp_path: Path) -> Path:
    header, entries = generate_v1_session(random.Random(1), turns=3)
    return write_session(tmp_path / "v1.jsonl", header, entries)


def _v2(tmp_path: Path) -> Path:
    header, entries = generate_v2_session(random.Random(2), turns=3)
    return write_session(tmp_path / "v2.jsonl", header, entries)


def _odd(tmp_path: Path, version: object) -> Path:
    """A header whose `version` is odd, over an entry with the id `m1` (which v1's migration
    replaces: `m1` names no entry once migrated)."""
    header = {"type": "session", "version": version, "id": "23232323-0000-0000-0000-000000000001"}
    header |= {"timestamp": "2026-01-02T09:15:29.852Z", "cwd": "/tmp/x"}
    message = {"type": "message", "id": "m1", "parentId": None}
    message |= {"timestamp": "2026-01-02T09:16:00.211Z"}
    message["message"] = {"role": "user", "content": "hello", "timestamp": 1}
    path = tmp_path / f"odd-{json.dumps(version)}.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(message) + "\n")
    return path


def _files(tmp_path: Path) -> list[Path]:
    files = [_v1(tmp_path), _v2(tmp_path), *(_odd(tmp_path, v) for v in ODD_VERSIONS)]
    for path in files:
        os.utime(path, (OLD, OLD))
    return files


REFUSED = [
    ["label", "{file}", "nosuchid", "X"],
    ["label", "{file}", "m1", "L"],
    ["label", "{file}", "nosuchid"],
    ["context-edit", "--omit", "{file}", "nosuchid"],
    ["context-edit", "--replace", "new text", "{file}", "m1"],
]


@pytest.mark.parametrize("command", REFUSED, ids=lambda c: " ".join(c))
def test_a_refused_write_leaves_an_old_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    for path in _files(tmp_path):
        before = path.read_bytes(), path.stat().st_ino
        wanted = command[command.index("{file}") + 1]
        capsys.readouterr()
        assert main([str(path) if part == "{file}" else part for part in command]) == 1
        err = capsys.readouterr().err
        assert err == f"pitui: no entry with id '{wanted}' in {path}\n", path.name
        assert (path.read_bytes(), path.stat().st_ino) == before, path.name


def test_a_write_that_goes_ahead_migrates_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The id pitui shows for an entry of an old file is the one the label points at once
    the file is migrated (the check before the migration used those ids)."""
    for path in _files(tmp_path):
        target = Session(path).tree.entries[0].id
        assert main(["label", str(path), target, "kept"]) == 0
        session = Session(path)
        assert session.header["version"] == 3
        assert session.tree.entries[0].id == target
        assert session.tree.labels[target].text == "kept", path.name
