"""`pitui pin/unpin/tag/untag` and what `pitui list` does with them."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.demo.generate import generate_corpus


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent = tmp_path / "agent"
    generate_corpus(agent / "sessions", seed=4, count=6, include_malformed=False)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return agent


def listed(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    capsys.readouterr()
    assert main(["list", "--all", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def oldest(capsys: pytest.CaptureFixture[str]) -> dict:
    return listed(capsys)[-1]


def test_pin_puts_a_session_first_in_every_sort(
    agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = oldest(capsys)
    before = Path(target["path"]).read_bytes()
    assert main(["pin", target["path"]]) == 0
    assert capsys.readouterr().out.startswith("pinned ")
    for sort in ("recent", "threaded", "relevance"):
        rows = listed(capsys, "--sort", sort)
        assert rows[0]["id"] == target["id"] and rows[0]["pinned"] is True, sort
    assert main(["list", "--all"]) == 0
    assert "* " in capsys.readouterr().out
    assert Path(target["path"]).read_bytes() == before, "never written into the session file"
    assert main(["unpin", target["path"]]) == 0
    assert listed(capsys)[-1]["id"] == target["id"]


def test_tags_and_search_tokens(agent: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    rows = listed(capsys)
    first, second = rows[0], rows[1]
    assert main(["tag", first["path"], "work", "urgent"]) == 0
    assert "tags now: urgent work" in capsys.readouterr().out
    assert main(["tag", second["path"], "work"]) == 0
    assert main(["pin", second["path"]]) == 0
    assert [r["id"] for r in listed(capsys, "tag:work")] == [second["id"], first["id"]]
    assert [r["id"] for r in listed(capsys, "tag:WORK tag:urgent")] == [first["id"]]
    assert [r["id"] for r in listed(capsys, "pin:")] == [second["id"]]
    assert listed(capsys, "tag:nothing") == []
    assert [r["id"] for r in listed(capsys, "tag:")] == [second["id"], first["id"]], "any tag"
    assert len(listed(capsys)) > 2, "the other sessions have no tag"
    assert listed(capsys, "tag:work")[1]["tags"] == ["urgent", "work"]
    # user data, not cache: survives a deleted index, --no-cache, a moved file
    shutil.rmtree(tmp_path / "cache")
    assert [r["id"] for r in listed(capsys, "--no-cache", "pin:")] == [second["id"]]
    moved = Path(second["path"]).with_name("renamed.jsonl")
    Path(second["path"]).rename(moved)
    assert [r["path"] for r in listed(capsys, "pin:")] == [str(moved)]
    assert main(["untag", first["path"], "urgent", "nope"]) == 0
    assert "tags now: work" in capsys.readouterr().out
    capsys.readouterr()
    assert main(["list", "--all"]) == 0
    assert "[work]" in capsys.readouterr().out


def test_errors_are_one_line(agent: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = oldest(capsys)["path"]
    assert main(["tag", path, "bad tag"]) == 1
    assert "invalid tag" in capsys.readouterr().err
    assert main(["pin", str(tmp_path / "missing.jsonl")]) == 1
    assert capsys.readouterr().err.startswith("pitui: cannot read")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "userdata.sqlite3").write_bytes(b"garbage" * 200)
    assert main(["pin", path]) == 1
    assert "pins and tags file" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["list", "--all", "--json"]) == 0  # listing still works, with a notice
    captured = capsys.readouterr()
    assert json.loads(captured.out) and "pins and tags file" in captured.err


def test_pins_survive_trash_and_restore(
    agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    import send2trash.plat_other as plat_other

    from pitui.core.changes import trash

    data_home = tmp_path / "xdg-data"
    data_home.mkdir()
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data_home))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", str(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)
    monkeypatch.setattr(trash, "send2trash", plat_other.send2trash)
    target = oldest(capsys)
    path = Path(target["path"])
    assert main(["pin", str(path)]) == 0 and main(["tag", str(path), "keep"]) == 0
    os.utime(path, (1_600_000_000, 1_600_000_000))  # not just written: trash refuses that
    assert main(["trash", str(path)]) == 0
    assert not path.exists() and listed(capsys, "pin:") == []
    os.rename(data_home / "Trash" / "files" / path.name, path)  # restored by hand
    [row] = listed(capsys, "pin:")
    assert row["id"] == target["id"] and row["tags"] == ["keep"]


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (os.mkfifo, "a FIFO"),
        (lambda path: path.symlink_to("/dev/zero"), "a character device"),
        (lambda path: path.mkdir(), "a directory"),
    ],
)
def test_a_pins_file_that_is_not_a_file_is_said_once(
    agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, kind: str
) -> None:
    path = oldest(capsys)["path"]
    pins = tmp_path / "data" / "userdata.sqlite3"
    pins.parent.mkdir()
    make(pins)
    said = f"pitui: the pins and tags file {pins} is not a regular file ({kind})\n"
    assert main(["list", "--all"]) == 0
    out, err = capsys.readouterr()
    assert err == said and len(out.splitlines()) == 7  # the heading and the 6 sessions
    assert main(["pin", path]) == 1
    assert capsys.readouterr().err == said


def test_a_pins_file_locked_by_another_process_does_not_hold_the_listing(
    agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = oldest(capsys)["path"]
    assert main(["pin", path]) == 0
    pins = tmp_path / "data" / "userdata.sqlite3"
    other = sqlite3.connect(pins, isolation_level=None)  # another process, as SQLite sees it
    other.execute("BEGIN EXCLUSIVE")
    try:
        capsys.readouterr()
        assert main(["list", "--all"]) == 0
        out, err = capsys.readouterr()
    finally:
        other.rollback()
        other.close()
    assert err == f"pitui: the pins and tags file {pins} is locked by another process\n"
    assert len(out.splitlines()) == 7
    assert listed(capsys)[0]["path"] == path and listed(capsys)[0]["pinned"]  # unlocked: pinned
