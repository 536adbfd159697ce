"""The picker's first screen kept from one launch and shown at the next, before Textual loads:
only while nothing it was drawn from has changed, and so that the app takes over the terminal
without clearing it, echoing a key, or leaving the terminal in its mode."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from pty_terminal import Pty, ended

from pitui.commands import first_frame
from pitui.commands.first_frame import ENTER, LEAVE, kept_screen
from pitui.core.answers import FORMAT
from pitui.demo.generate import write_demo_store

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, folder in (("PI_CODING_AGENT_DIR", "agent"), ("PITUI_CACHE_DIR", "cache"),
                         ("PITUI_DATA_DIR", "data"), ("PITUI_CONFIG_DIR", "config")):  # fmt: skip
        monkeypatch.setenv(name, str(tmp_path / folder))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    write_demo_store(tmp_path / "agent")
    return tmp_path


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A terminal of 100x30 whose output is collected (no mode is changed)."""
    written: list[str] = []
    monkeypatch.setattr(first_frame, "_plain_terminal", lambda: True)
    monkeypatch.setattr(
        first_frame.shutil, "get_terminal_size", lambda: os.terminal_size((100, 30))
    )
    monkeypatch.setattr(first_frame.KeptScreen, "_enter_app_mode", lambda self: True)
    monkeypatch.setattr(first_frame, "_write", written.append)
    return written


def _args(*argv: str) -> argparse.Namespace:
    from pitui.commands.app import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def _shown_again(*argv: str) -> bool:
    kept = kept_screen(_args(*argv))
    assert kept is not None
    return kept.show()


def test_a_kept_screen_is_shown_while_nothing_changed(env: Path, terminal: list[str]) -> None:
    first = kept_screen(_args("--all"))
    assert first is not None and not first.show() and terminal == []
    first.keep("FRAME", time.time() + 3600)
    assert _shown_again("--all")
    assert terminal == [ENTER + "FRAME"]
    assert not _shown_again()  # another scope: another screen


@pytest.mark.parametrize(
    "change",
    ["grow", "add", "remove", "pin", "settings", "keys", "pi-settings", "index", "size"],
)
def test_any_change_it_was_drawn_from_hides_it(
    env: Path, terminal: list[str], change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = kept_screen(_args("--all"))
    assert kept is not None
    kept.keep("FRAME", time.time() + 3600)
    sessions = sorted((env / "agent" / "sessions").rglob("*.jsonl"))
    if change == "grow":
        with sessions[0].open("ab") as fh:
            fh.write(b'{"type":"label","id":"x1","parentId":null}\n')
    elif change == "add":
        (sessions[0].parent / "new.jsonl").write_bytes(sessions[0].read_bytes())
    elif change == "remove":
        sessions[1].unlink()
    elif change == "pin":
        from pitui.cli import main

        assert main(["pin", str(sessions[0])]) == 0
    elif change == "settings":
        (env / "config").mkdir(exist_ok=True)
        (env / "config" / "settings.json").write_text(json.dumps({"theme": "pitui-light"}))
    elif change == "keys":
        (env / "agent" / "keybindings.json").write_text('{"tui.select.down": "ctrl+n"}')
    elif change == "pi-settings":
        (env / "agent" / "settings.json").write_text("{}")
    elif change == "index":
        (env / "cache").mkdir(exist_ok=True)
        (env / "cache" / "catalog.sqlite3").write_bytes(b"")
    else:
        monkeypatch.setattr(
            first_frame.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24))
        )
    assert not _shown_again("--all")
    assert terminal == []


def test_it_is_good_only_until_an_age_on_it_would_change(
    env: Path, terminal: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = kept_screen(_args("--all"))
    assert kept is not None
    now = time.time()
    kept.keep("FRAME", now + 60)
    assert _shown_again("--all")
    monkeypatch.setattr(first_frame.time, "time", lambda: now + 61)
    assert not _shown_again("--all")
    kept.keep("LATE", now + 30)  # already past: not kept
    assert not _shown_again("--all")


def test_nothing_is_kept_without_a_cache_or_for_one_file_or_the_demo(
    env: Path, terminal: list[str]
) -> None:
    assert kept_screen(_args("--all", "--no-cache")) is None
    assert kept_screen(_args("--demo")) is None
    assert kept_screen(_args(str(next((env / "agent").rglob("*.jsonl"))))) is None


def test_the_terminal_is_given_back_if_the_app_never_took_it(
    env: Path, terminal: list[str]
) -> None:
    kept = kept_screen(_args("--all"))
    assert kept is not None
    kept.keep("FRAME", time.time() + 3600)
    again = kept_screen(_args("--all"))
    assert again is not None and again.show()
    again.restore()
    assert terminal[-1] == LEAVE
    taken = kept_screen(_args("--all"))
    assert taken is not None and taken.show()
    taken.handed_over = True
    taken.restore()
    assert terminal[-1] != LEAVE  # the app's driver left the alternate screen itself


# -- a real terminal ----------------------------------------------------------------------


def test_a_later_launch_shows_the_first_screen_before_textual(
    env: Path,
) -> None:
    run_env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PYTEST"))}
    run_env.update(TERM="xterm-256color", PYTHONPATH=str(REPO), LANG="C.UTF-8")
    answers = env / "cache" / "answers"

    for _ in range(2):  # the first launch builds the index: the second draws from it
        shutil.rmtree(answers, ignore_errors=True)
        with ended(Pty(run_env)) as first:
            first.wait_for(lambda: answers.is_dir() and any(answers.iterdir()))
            first.quit()
    (kept_file,) = answers.iterdir()
    frame = _kept_body(kept_file.read_bytes()).split("\n", 1)[1]
    assert "shown" in frame
    frame = frame.replace("\n", "\r\n")  # as the terminal passes it on (onlcr)

    with ended(Pty(run_env)) as second:
        second.wait_for(lambda: second.text().startswith(ENTER + frame))  # before Textual
        second.wait_for(lambda: second.text().count(frame) >= 2, 60)  # the app's own, the same
        out = second.quit()
    assert out.count("\x1b[?1049h") == 1  # the app did not enter (and clear) it again
    assert second.mode_after == second.mode_before  # the terminal's mode as it was
    assert "\x1b[?1049l" in out[-300:]  # and the alternate screen left

    with ended(Pty(run_env)) as third:
        third.wait_for(lambda: third.text().startswith(ENTER + frame))
        third.send(b"\x1b[B\x1b[B")  # Down, Down, while the app is still starting
        third.wait_for(lambda: len(third.text()) > len(ENTER + frame) + 2000, 60)  # the app drew
        out = third.quit()
    assert "\x1b[B" not in out and "^[[B" not in out  # the keys were not echoed
    assert third.mode_after == third.mode_before


def _kept_body(data: bytes) -> str:
    """The answer in a kept-answer file (see `pitui.core.answers.Answers.put`)."""
    head, rest = data[len(FORMAT) :].split(b"\n", 1)
    size, count = map(int, head.split())
    return rest[size + 32 * count :].decode("utf-8")


def test_a_screen_the_terminal_cannot_take_is_given_up(
    env: Path, terminal: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = kept_screen(_args("--all"))
    assert kept is not None
    kept.keep("FRAME ▊", time.time() + 3600)

    def latin1_only(text: str) -> None:
        text.encode("latin-1")  # a terminal set to another encoding
        terminal.append(text)

    monkeypatch.setattr(first_frame, "_write", latin1_only)
    assert not _shown_again("--all")
    assert terminal == [LEAVE]  # the terminal given back as it was
