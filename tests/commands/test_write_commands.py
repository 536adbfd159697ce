"""`pitui label`, `pitui name`, `pitui trash` on the command line."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.changes import trash
from pitui.core.session.session import Session
from pitui.demo.generate import generate_v1_session, generate_varied_session, write_session

OLD = 1_600_000_000


@pytest.fixture
def session(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(3))
    path = write_session(tmp_path / "s.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    return path


def _last(path: Path) -> dict[str, Any]:
    return json.loads(path.read_bytes().split(b"\n")[-2])


@pytest.mark.oracle
def test_label_and_clear(session: Path, pi_oracle: Any, capsys: pytest.CaptureFixture) -> None:
    target = Session(session).tree.entries[2].id
    assert main(["label", str(session), target, "my label"]) == 0
    assert "labelled" in capsys.readouterr().out
    assert pi_oracle.request({"op": "open", "file": str(session)})["labels"][target] == "my label"
    assert main(["label", str(session), target, "--force"]) == 0
    assert "label" not in _last(session)
    assert target not in pi_oracle.request({"op": "open", "file": str(session)})["labels"]


@pytest.mark.oracle
def test_name(session: Path, pi_oracle: Any) -> None:
    assert main(["name", str(session), " two\nlines "]) == 0
    assert pi_oracle.request({"op": "open", "file": str(session)})["sessionName"] == "two lines"


def test_name_v1_file_is_migrated(tmp_path: Path) -> None:
    header, entries = generate_v1_session(random.Random(5))
    path = write_session(tmp_path / "v1.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    assert main(["name", str(path), "old one"]) == 0
    assert json.loads(path.read_bytes().split(b"\n")[0])["version"] == 3
    assert _last(path)["name"] == "old one"


def test_unknown_entry(session: Path, capsys: pytest.CaptureFixture) -> None:
    before = session.read_bytes()
    assert main(["label", str(session), "zzzzzzzz", "x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: no entry with id 'zzzzzzzz'") and err.count("\n") == 1
    assert session.read_bytes() == before


def test_warning_without_force(session: Path, capsys: pytest.CaptureFixture) -> None:
    os.utime(session)
    before = session.read_bytes()
    assert main(["name", str(session), "n"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: ") and "modified" in err and err.count("\n") == 1
    assert session.read_bytes() == before
    assert main(["name", str(session), "n", "--force"]) == 0


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["name", str(tmp_path / "nope.jsonl"), "n"]) == 1
    assert capsys.readouterr().err.startswith("pitui: ")


def test_trash(session: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    monkeypatch.setattr(trash, "send2trash", lambda p: (taken.append(p), os.rename(p, p + "~")))
    assert main(["trash", str(session)]) == 0
    assert taken == [str(session)]


@pytest.mark.parametrize("content", [b"", b"root:x:0:0\n", b'{"type":"message","id":"a"}\n'])
def test_trash_takes_only_sessions(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
) -> None:
    """Any other file would sit in the trash where `pitui restore` never finds it."""
    other = tmp_path / "other.jsonl"
    other.write_bytes(content)
    monkeypatch.setattr(trash, "send2trash", lambda p: pytest.fail(f"trashed {p}"))
    assert main(["trash", str(other)]) == 1
    assert (
        capsys.readouterr().err
        == f"pitui: {other} is not a Pi session (no session header with an id)\n"
    )
    assert other.read_bytes() == content


def test_trash_refused(
    session: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    def refuse(path: str) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(trash, "send2trash", refuse)
    assert main(["trash", str(session)]) == 1
    assert "Permission denied" in capsys.readouterr().err
    assert session.exists()


@pytest.mark.parametrize("command", [["label", "{}", "e1", "x"], ["name", "{}", "x"]])
def test_a_folder_just_changed_is_not_a_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    folder = tmp_path / "just-changed"
    folder.mkdir()  # its mtime is now: a regular file this fresh would be "being written"
    assert main([part.format(folder) for part in command]) == 1
    assert capsys.readouterr().err == f"pitui: {folder} is not a regular file (a directory)\n"


def test_the_writes_of_one_session_are_those_forwarded_to_a_mirrors_remote() -> None:
    """A write naming a mirrored session is run by pitui on its remote (the commands say so;
    the CLI forwards them before parsing): one session's label, name, context edit, trash."""
    import importlib

    from pitui.cli import SUBCOMMANDS

    forwarded = {
        name
        for name in SUBCOMMANDS
        if getattr(
            importlib.import_module(f"pitui.commands.{name.replace('-', '_')}"),
            "FORWARDED_FOR_MIRRORS",
            False,
        )
    }
    assert forwarded == {"label", "name", "context-edit", "trash"}


def test_text_that_is_not_utf8_is_refused(session: Path, capsys: pytest.CaptureFixture) -> None:
    """Command-line bytes that are not UTF-8 (0x85 alone) reach Python as a lone surrogate
    (`\\udc85`); `name` wrote it into the session (Pi never writes one) and `tag` failed with
    a traceback. Each refuses it with one line, exit 2, and writes nothing."""
    before = session.read_bytes()
    target = Session(session).tree.entries[2].id
    bad = os.fsdecode(b"\x1fY\x1f\x85")
    for args, what in (
        (["name", "--force", str(session), bad], "name"),
        (["label", "--force", str(session), target, bad], "label"),
        (["context-edit", "--force", str(session), target, "--replace", bad], "--replace text"),
        (["tag", str(session), "ok", bad], "tag"),
        (["untag", str(session), os.fsdecode(b"t\xff")], "tag"),
    ):
        assert main(args) == 2
        out, err = capsys.readouterr()
        byte = "0x85" if args[0] != "untag" else "0xff"
        assert (out, err) == ("", f"pitui: the {what} is not valid UTF-8 (byte {byte})\n")
    assert session.read_bytes() == before
    assert main(["tag", str(session), "ok"]) == 0
    assert main(["name", str(session), "né"]) == 0
    assert _last(session)["name"] == "né"
