"""`pitui check` remembers what each file holds until the file, or the rules, change
(`support/check_cache.py`): a second `check --all` reads only what changed."""

from __future__ import annotations

import json
import os
import random
import types
from pathlib import Path
from typing import Any

import pytest

import pitui.commands.support.check_cache as check_cache
from pitui.cli import main
from pitui.core.user_dirs import cache_dir
from pitui.demo.generate import dumps, generate_varied_session


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three sessions, each with the demo's deliberate orphan (one departure each); a cache
    folder of the test's own."""
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for i in range(3):
        header, entries = generate_varied_session(random.Random(i), "/work/p")
        (sessions / f"s{i}.jsonl").write_text("".join(dumps(e) + "\n" for e in [header, *entries]))
    return sessions


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files `pitui check` reads (the cache's answers are not reads)."""
    read: list[str] = []
    real = check_cache.check_session

    def counted(path: str) -> Any:
        read.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(check_cache, "check_session", counted)
    return read


def _check(capsys: pytest.CaptureFixture[str], folder: Path, *more: str) -> Any:
    main(["check", "--all", "--json", "--session-dir", str(folder), *more])
    return json.loads(capsys.readouterr().out)


def test_a_second_check_reads_only_the_files_that_changed(
    folder: Path, reads: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    first = _check(capsys, folder)
    assert sorted(reads) == ["s0.jsonl", "s1.jsonl", "s2.jsonl"]
    assert all(len(f["problems"]) == 1 for f in first)
    reads.clear()
    assert _check(capsys, folder) == first
    assert reads == []
    with (folder / "s1.jsonl").open("a") as file:
        file.write('{"type": oops}\n')
    again = _check(capsys, folder)
    assert reads == ["s1.jsonl"]
    assert {Path(f["path"]).name: len(f["problems"]) for f in again} == {
        "s0.jsonl": 1,
        "s1.jsonl": 2,
        "s2.jsonl": 1,
    }


def test_an_edit_that_keeps_the_size_and_the_mtime_is_read_again(
    folder: Path, reads: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _check(capsys, folder)
    path = folder / "s2.jsonl"
    before = path.stat()
    text = path.read_text()
    path.write_text(text.replace('"version":3', '"version":4', 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    reads.clear()
    found = _check(capsys, folder)
    assert reads == ["s2.jsonl"]
    problems = {Path(f["path"]).name: [p["problem"] for p in f["problems"]] for f in found}
    assert "header: version 4 is newer" in problems["s2.jsonl"][0]


def test_other_rules_check_every_file_again(
    folder: Path,
    tmp_path: Path,
    reads: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "__init__.py").write_text("")
    (rules / "models.py").write_text("LIMIT = 1\n")
    package = types.SimpleNamespace(__file__=str(rules / "__init__.py"))
    monkeypatch.setattr(check_cache, "RULES", (package,))
    first = _check(capsys, folder)
    reads.clear()
    _check(capsys, folder)
    assert reads == []
    (rules / "models.py").write_text("LIMIT = 2\n")
    assert _check(capsys, folder) == first
    assert sorted(reads) == ["s0.jsonl", "s1.jsonl", "s2.jsonl"]


def test_a_damaged_cache_is_rebuilt_and_no_cache_keeps_none(
    folder: Path, reads: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    kept = cache_dir() / check_cache.FILE_NAME
    first = _check(capsys, folder, "--no-cache")
    assert not kept.exists()
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text('{"meta": [')
    assert _check(capsys, folder) == first
    assert capsys.readouterr().err == ""
    data = json.loads(kept.read_text())
    data["files"][str(folder / "s0.jsonl")][5] = "not a list of problems"
    kept.write_text(json.dumps(data))
    reads.clear()
    assert _check(capsys, folder) == first
    assert reads == ["s0.jsonl"]
