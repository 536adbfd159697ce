"""Writing from scripts: pitui's own recent write is not a sign of another writer, in this
process or another one, but a line anyone else appended after it still is; a refusal names
--force. Labels typed on the command line are trimmed as Pi's /tree editor trims them."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.changes import write_guard
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session

OLD = 1_600_000_000
FOREIGN = b'{"type":"custom","customType":"pi","id":"f0000001","parentId":null}\n'


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(write_guard, "_own_writes", {})
    return tmp_path / "cache"


@pytest.fixture
def session(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(9))
    path = write_session(tmp_path / "s.jsonl", header, entries)
    os.utime(path, (OLD, OLD))
    return path


def _new_process() -> None:
    """What a new pitui process knows of its own earlier writes: nothing in memory."""
    write_guard._own_writes.clear()


def _last(path: Path) -> dict[str, Any]:
    return json.loads(path.read_bytes().splitlines()[-1])


def test_twenty_labels_in_a_row_all_succeed(session: Path, capsys: Any) -> None:
    target = Session(session).tree.entries[1].id
    for n in range(20):
        _new_process()
        assert main(["label", str(session), target, f"step {n}"]) == 0, capsys.readouterr().err
        assert _last(session)["label"] == f"step {n}"
    assert capsys.readouterr().err == ""


def test_name_then_name_again_from_two_processes(session: Path, cache: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PITUI_CACHE_DIR": str(cache)}
    for name in ("X", "Y"):
        done = subprocess.run(
            [sys.executable, "-m", "pitui", "name", str(session), name],
            env=env,
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        assert _last(session)["name"] == name


def test_a_line_appended_after_our_write_still_warns(session: Path, capsys: Any) -> None:
    assert main(["name", str(session), "ours"]) == 0
    with session.open("ab") as handle:  # pi appends right after
        handle.write(FOREIGN)
    before = session.read_bytes()
    for fresh_process in (False, True):
        if fresh_process:
            _new_process()
        assert main(["name", str(session), "again"]) == 1
        err = capsys.readouterr().err
        assert "was modified" in err and "--force" in err and "nothing was changed" in err
        assert session.read_bytes() == before
    assert main(["name", str(session), "again", "--force"]) == 0


def test_same_size_rewrite_after_our_write_still_warns(session: Path) -> None:
    """A record matches the file's inode, size and mtime: any other change breaks it."""
    assert main(["name", str(session), "ours"]) == 0
    _new_process()
    data = session.read_bytes()
    session.write_bytes(data[:-10] + b"x" * 9 + b"\n")  # same size, new mtime
    assert write_guard.activity_warning(session) is not None


def test_unusable_cache_folder_remembers_in_memory(
    session: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("PITUI_CACHE_DIR", str(blocked))
    assert main(["name", str(session), "a"]) == 0
    assert main(["name", str(session), "b"]) == 0  # same process: remembered in memory
    assert _last(session)["name"] == "b"


def test_old_records_are_pruned(session: Path, cache: Path, tmp_path: Path) -> None:
    assert main(["name", str(session), "a"]) == 0
    [record] = (cache / write_guard.RECORD_FOLDER).iterdir()
    os.utime(record, (OLD, OLD))
    other = write_session(tmp_path / "t.jsonl", *generate_varied_session(random.Random(1)))
    os.utime(other, (OLD, OLD))
    assert main(["name", str(other), "b"]) == 0
    assert not record.exists() and len(list(record.parent.iterdir())) == 1


@pytest.mark.oracle
@pytest.mark.parametrize(
    ("typed", "stored"),
    [("  my label \t", "my label"), ("\u3000\u00a0x\ufeff", "x"), ("   ", None), ("", None)],
)
def test_label_text_is_trimmed_as_pis_editor(
    session: Path, pi_oracle: Any, typed: str, stored: str | None, capsys: Any
) -> None:
    """Pi's /tree label editor submits `input.getValue().trim()`, and `value || undefined`:
    trimmed, and an empty result clears the label."""
    target = Session(session).tree.entries[2].id
    assert main(["label", str(session), target, "old", "--force"]) == 0
    assert main(["label", str(session), target, typed, "--force"]) == 0
    labels = pi_oracle.request({"op": "open", "file": str(session)})["labels"]
    assert labels.get(target) == stored
    assert _last(session).get("label") == stored
    out = capsys.readouterr().out.splitlines()[-1]
    assert out.startswith("labelled" if stored else "cleared the label of")


def test_a_line_appended_right_after_ours_is_not_taken_for_ours(
    session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pi appends in the instant between pitui's write and pitui looking at the result: the
    state pitui sees then is not its own, and is not recorded as such."""
    real_write = os.write

    def write_then_pi(fd: int, data: bytes) -> int:
        done = real_write(fd, data)
        with session.open("ab") as handle:
            handle.write(FOREIGN)
        return done

    monkeypatch.setattr(os, "write", write_then_pi)
    assert main(["name", str(session), "ours"]) == 0
    monkeypatch.setattr(os, "write", real_write)
    assert session.read_bytes().endswith(FOREIGN)
    assert "was modified" in (write_guard.activity_warning(session) or "")
    _new_process()
    assert "was modified" in (write_guard.activity_warning(session) or "")
