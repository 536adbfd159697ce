"""`pitui context-edit` on the command line, and what cannot be edited or undone."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from entry_builders import header, message_entry, msg, ts

from pitui.cli import main
from pitui.core.changes.context_edit import restoring_replacement
from pitui.core.session.session import Session

OLD = 1_600_000_000


@pytest.fixture
def session(tmp_path: Path) -> Path:
    compaction = {"type": "compaction", "id": "c1", "parentId": "a2", "timestamp": ts(5)}
    compaction |= {"summary": "s", "firstKeptEntryId": "u2", "tokensBefore": 9}
    raws = [
        header(),
        msg("u1", None, "user", "first", 1),
        msg("a1", "u1", "assistant", "answer", 2),
        msg("u2", "a1", "user", "second", 3),
        msg("a2", "u2", "assistant", "plain", 4, api="x"),
        compaction,
        message_entry("x1", "c1", {"role": "bashExecution", "command": "ls", "output": ""}, 6),
        message_entry("s1", "x1", {"role": "assistant", "content": "plain text"}, 7),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in raws))
    os.utime(path, (OLD, OLD))
    return path


def last(path: Path) -> dict[str, Any]:
    return json.loads(path.read_bytes().split(b"\n")[-2])


def test_omit_and_replace(session: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["context-edit", str(session), "u2", "--omit"]) == 0
    assert "omitted u2" in capsys.readouterr().out
    assert last(session) == {
        "type": "context_edit",
        "id": last(session)["id"],
        "parentId": "s1",
        "timestamp": last(session)["timestamp"],
        "targetId": "u2",
        "replacement": None,
    }
    assert main(["context-edit", str(session), "a2", "--replace", "short"]) == 0
    assert last(session)["replacement"] == {"content": [{"type": "text", "text": "short"}]}
    texts = [json.dumps(m) for m in Session(session).context().messages]
    assert not any("second" in t for t in texts) and any('"short"' in t for t in texts)


def test_summarized_target_gets_a_note(session: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["context-edit", str(session), "a1", "--omit"]) == 0
    assert "summarized by a compaction" in capsys.readouterr().out


def test_replace_file(session: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    note = tmp_path / "note.txt"
    note.write_text("from a file\n")
    assert main(["context-edit", str(session), "u2", "--replace-file", str(note)]) == 0
    assert last(session)["replacement"] == {"content": "from a file\n"}
    before = session.read_bytes()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe")
    for path, reason in ((fifo, "not a regular file"), (bad, "not UTF-8"), (tmp_path, "directory")):
        assert main(["context-edit", str(session), "u2", "--replace-file", str(path)]) == 1
        assert reason in capsys.readouterr().err
    assert session.read_bytes() == before


def test_refusals_and_undo_limits(session: Path, capsys: pytest.CaptureFixture) -> None:
    before = session.read_bytes()
    assert main(["context-edit", str(session), "x1", "--omit"]) == 1
    err = capsys.readouterr().err
    assert "does not contribute editable model content (a bashExecution message" in err
    assert main(["context-edit", str(session), "c1", "--omit"]) == 1
    assert "a compaction" in capsys.readouterr().err
    assert main(["context-edit", str(session), "s1", "--restore"]) == 1
    assert "s1 has no context edit to undo" in capsys.readouterr().err
    assert session.read_bytes() == before
    assert main(["context-edit", str(session), "s1", "--omit", "--force"]) == 0
    edited = session.read_bytes()
    assert main(["context-edit", str(session), "s1", "--restore"]) == 1
    assert "plain text, which Pi stores back as a text block" in capsys.readouterr().err
    assert session.read_bytes() == edited
    tree = Session(session).tree
    assert restoring_replacement(tree.get("u1")) == {"content": "first"}
    assert isinstance(restoring_replacement(tree.get("x1")), str)


def test_restore(session: Path, capsys: pytest.CaptureFixture) -> None:
    before = Session(session).context().to_json()
    assert main(["context-edit", str(session), "u2", "--replace", "x"]) == 0
    assert main(["context-edit", str(session), "u2", "--restore"]) == 0
    assert "restored u2" in capsys.readouterr().out
    assert Session(session).context().to_json() == before


@pytest.mark.parametrize("how", [["--omit"], ["--replace", "x"], ["--restore"]])
def test_an_unknown_id_is_said_as_every_command_says_it(
    session: Path, capsys: pytest.CaptureFixture, how: list[str]
) -> None:
    assert main(["context-edit", str(session), "zz", *how]) == 1
    assert capsys.readouterr().err == f"pitui: no entry with id 'zz' in {session}\n"
    assert main(["label", str(session), "zz", "x"]) == 1
    assert capsys.readouterr().err == f"pitui: no entry with id 'zz' in {session}\n"
