"""The answer cache: an answer printed again only while every recorded dependency is as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pitui.commands.support.answer_cache import AnswerCache, Dependencies, key_of


@pytest.fixture
def store(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions" / "--p--"
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text("one\n")
    (folder / "b.jsonl").write_text("two\n")
    (tmp_path / "settings.json").write_text("{}")
    return tmp_path


def _keep(store: Path, answer: str = "the answer\n", key: bytes = b"k") -> AnswerCache:
    depends = Dependencies()
    depends.file(str(store / "settings.json"))
    depends.file(str(store / "absent.json"))
    depends.folder(str(store / "sessions"))
    depends.sessions(str(store / "sessions" / "--p--"))
    answers = AnswerCache(str(store / "cache"), key)
    answers.put(depends, answer)
    return answers


def test_read_back_while_nothing_changed(store: Path) -> None:
    answers = _keep(store, "línea \ud83d sola\n")  # any str, a lone surrogate too
    assert answers.get() == "línea \ud83d sola\n"
    assert AnswerCache(str(store / "cache"), b"k").get() == "línea \ud83d sola\n"


@pytest.mark.parametrize(
    "change",
    [
        lambda s: (s / "sessions" / "--p--" / "a.jsonl").open("a").write("x"),  # grew
        lambda s: (s / "sessions" / "--p--" / "c.jsonl").write_text("new\n"),  # added
        lambda s: (s / "sessions" / "--p--" / "b.jsonl").unlink(),  # removed
        lambda s: os.utime(s / "sessions" / "--p--" / "a.jsonl", ns=(1, 1)),  # touched
        lambda s: (s / "sessions" / "--p--" / "a.jsonl").chmod(0o000),  # ctime, mode
        lambda s: (s / "sessions" / "--q--").mkdir(),  # a new project folder
        lambda s: (s / "settings.json").write_text('{"sessionDir": "x"}'),
        lambda s: (s / "absent.json").write_text("{}"),  # a file that was absent appears
    ],
)
def test_any_change_misses(store: Path, change) -> None:  # type: ignore[no-untyped-def]
    answers = _keep(store)
    change(store)
    assert answers.get() is None


def test_an_answer_that_is_not_a_regular_file_is_not_read(store: Path) -> None:
    """A FIFO in the answer's place would block a plain open(): a miss, at once."""
    answers = _keep(store)
    assert answers.path is not None
    os.unlink(answers.path)
    os.mkfifo(answers.path)
    assert answers.get() is None


def test_another_key_misses(store: Path) -> None:
    _keep(store, key=b"k")
    assert AnswerCache(str(store / "cache"), b"other").get() is None


def test_no_folder_keeps_nothing(store: Path) -> None:
    answers = AnswerCache(None, b"k")
    answers.put(Dependencies(), "x")
    assert answers.get() is None


def test_damaged_answer_misses(store: Path) -> None:
    answers = _keep(store)
    assert answers.path is not None
    data = Path(answers.path).read_bytes()
    for damaged in (b"", data[:20], data[:40] + b"\xff" + data[41:], b"junk\n" + data):
        Path(answers.path).write_bytes(damaged)
        assert answers.get() is None
    answers = _keep(store)  # and is replaced by the next answer kept
    assert answers.get() == "the answer\n"


def test_key_follows_options_cwd_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    base = key_of("list", {"all": True}, "/w")
    assert key_of("list", {"all": True}, "/w") == base
    assert key_of("list", {"all": False}, "/w") != base
    assert key_of("stats", {"all": True}, "/w") != base
    assert key_of("list", {"all": True}, "/v") != base
    for name in ("PI_CODING_AGENT_DIR", "PITUI_DATA_DIR", "XDG_DATA_HOME", "HOME", "TZ"):
        monkeypatch.setenv(name, "/elsewhere")
        assert key_of("list", {"all": True}, "/w") != base, name
        monkeypatch.undo()


def _aged(answers: AnswerCache, seconds: int) -> None:
    """Distinct times, in the order kept (the clock may not tick between two writes)."""
    assert answers.path is not None
    os.utime(answers.path, ns=(seconds * 10**9, seconds * 10**9))


def test_oldest_answers_are_dropped(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pitui.commands.support.answer_cache.KEEP", 3)
    for n in range(6):
        _aged(_keep(store, key=b"k%d" % n), n)
    assert sorted(os.listdir(store / "cache" / "answers")) == sorted(
        os.path.basename(str(AnswerCache(str(store / "cache"), b"k%d" % n).path)) for n in (3, 4, 5)
    )


def test_answers_kept_within_a_size(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pitui.commands.support.answer_cache.KEEP_BYTES", 2500)
    for n in range(4):
        _aged(_keep(store, "x" * 1000, key=b"k%d" % n), n)
    kept = [AnswerCache(str(store / "cache"), b"k%d" % n).get() for n in range(4)]
    assert kept[:2] == [None, None] and kept[3] == "x" * 1000
