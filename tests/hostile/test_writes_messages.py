"""`pitui label`, `name` and `trash` never print a file name or session text raw: escapes in a
file name (clear screen, OSC 52 clipboard write, C1 CSI) reach the terminal only as visible
symbols, in messages and in errors alike."""

from __future__ import annotations

import errno
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.changes import migrate_file, trash, write_guard
from pitui.core.session.session import Session
from pitui.demo.generate import generate_v1_session, generate_varied_session, write_session

EVIL = "evil\x1b[2J\x1b]52;c;aGVsbG8=\x07\x9b31m\u0085"
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
OLD = 1_600_000_000


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(write_guard, "_own_writes", {})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / f"project{EVIL}"
    folder.mkdir()
    return folder


def _session(folder: Path, old: bool = False) -> Path:
    make = generate_v1_session if old else generate_varied_session
    path = write_session(folder / f"{EVIL}.jsonl", *make(random.Random(4)))
    os.utime(path, (OLD, OLD))
    return path


def _printed(capsys: Any) -> str:
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert not CONTROLS.search(text), repr(text)
    return text


def test_label_messages(folder: Path, capsys: Any) -> None:
    path = _session(folder)
    target = Session(path).tree.entries[0].id
    assert main(["label", str(path), target, "x"]) == 0
    assert "labelled" in _printed(capsys)
    assert main(["label", str(path), f"no{EVIL}", "x"]) == 1
    assert "␛[2J" in _printed(capsys)
    os.utime(path)  # recently modified by someone else
    assert main(["label", str(path), target, "y"]) == 1
    assert "--force" in _printed(capsys)
    with path.open("ab") as handle:
        handle.write(b'{"type":"custom"')  # pi mid-write
    assert main(["label", str(path), target, "y", "--force"]) == 1
    assert "incomplete line" in _printed(capsys)


def test_name_messages(folder: Path, capsys: Any) -> None:
    path = _session(folder)
    assert main(["name", str(path), f"name {EVIL}"]) == 0
    assert "named the session" in _printed(capsys)
    missing = folder / f"missing{EVIL}.jsonl"
    assert main(["name", str(missing), "n"]) == 1
    assert "missing" in _printed(capsys)
    not_session = folder / f"notes{EVIL}.jsonl"
    not_session.write_text(f"{EVIL}\n")
    os.utime(not_session, (OLD, OLD))
    assert main(["name", str(not_session), "n"]) == 1
    _printed(capsys)


def test_migration_messages(folder: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _session(folder, old=True)
    real_open = os.open

    def no_create(name: Any, flags: int, *args: Any) -> int:
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied", name)
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", no_create)
    assert main(["name", str(path), "n"]) == 1
    assert "temporary file" in _printed(capsys)
    monkeypatch.setattr(os, "open", real_open)
    monkeypatch.setattr(migrate_file, "process_writing", lambda info: f"pid 7 ({EVIL})")
    monkeypatch.setattr(migrate_file, "WRITER_GRACE_SECONDS", 0.0)
    assert main(["name", str(path), "n", "--force"]) == 1
    assert "open for writing by pid 7" in _printed(capsys)


@pytest.mark.usefixtures("home_trash")
def test_trash_messages(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    path = _session(folder)
    assert main(["trash", str(path)]) == 0
    assert "moved" in _printed(capsys) and not path.exists()
    assert main(["trash", str(path)]) == 1  # gone now
    _printed(capsys)
    (folder / f"dir{EVIL}.jsonl").mkdir()
    assert main(["trash", str(folder / f"dir{EVIL}.jsonl")]) == 1
    assert "not a regular file" in _printed(capsys)

    def refuse(name: str) -> None:
        raise OSError(f"trash refused {name}")

    monkeypatch.setattr(trash, "send2trash", refuse)
    assert main(["trash", str(_session(folder))]) == 1
    assert "the file was kept" in _printed(capsys)
