"""Progress on stderr (issue 27): a bar while stderr is a terminal, nothing when piped or
with `--json`."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import sys
import threading
from pathlib import Path

import pytest
from terminal_stderr import terminal_stderr

from pitui.cli import main
from pitui.commands.support import progress

# the one in the demo corpus, named
NOT_A_SESSION = re.compile(r"pitui: skipped 1 \.jsonl file that is not a session: /\S+\.jsonl\n")


@pytest.fixture
def agent(agent: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo corpus (tests/conftest.py), on a terminal that shows progress at once."""
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(progress, "DELAY", 0.0)  # the small corpus is quick: show at once
    return agent


def test_listing_shows_its_scan_on_a_terminal(agent: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    with terminal_stderr(monkeypatch) as written:
        assert main(["list", "--all"]) == 0
    assert b"indexing sessions" in written
    assert "indexing" not in capsys.readouterr().out


COMMANDS = [
    (["stats", "--all"], b"reading usage"),
    (["secrets", "--all"], b"looking for credentials"),
    (["prune", "--empty", "--all", "--dry-run"], b"indexing sessions"),
]


@pytest.mark.parametrize(("argv", "what"), COMMANDS)
def test_cold_commands_show_their_work_on_a_terminal(agent: Path, monkeypatch, argv, what) -> None:  # type: ignore[no-untyped-def]
    with terminal_stderr(monkeypatch) as written:
        assert main(argv) == 0
    assert what in written


@pytest.mark.parametrize(("argv", "what"), COMMANDS)
def test_cold_commands_say_nothing_more_with_json(agent: Path, monkeypatch, argv, what) -> None:  # type: ignore[no-untyped-def]
    with terminal_stderr(monkeypatch) as written:
        assert main([*argv, "--json"]) == 0
    assert what not in written and b"\x1b" not in written


LONG = [
    (["check", "--all"], b"checking sessions"),
    (["grep", "zzqx-nowhere", "--all"], b"indexing sessions"),
    (["grep", "zzqx-nowhere", "--all"], b"searching sessions"),  # stdout not this terminal
    (["log", "/nowhere/file.py", "--all"], b"indexing sessions"),
    (["archive", "--all", "--cwd-missing", "--yes", "--force"], b"moving sessions"),
]


@pytest.mark.parametrize(("argv", "what"), LONG)
def test_long_commands_show_their_work_on_a_terminal(agent: Path, monkeypatch, argv, what) -> None:  # type: ignore[no-untyped-def]
    """At 10,000 sessions each of these took 6-38 s without a sign of work."""
    with terminal_stderr(monkeypatch) as written:
        main(argv)
    assert what in written


def test_moving_a_projects_sessions_shows_its_work(agent: Path, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    old = json.loads(_a_session(agent).read_text().splitlines()[0])["cwd"]
    with terminal_stderr(monkeypatch) as written:
        assert main(["move", old, str(tmp_path / "moved"), "--yes", "--force"]) == 0
    assert b"moving sessions" in written


def _a_session(agent: Path) -> Path:
    return max((agent / "sessions").rglob("*.jsonl"), key=lambda p: p.stat().st_size)


def test_export_to_a_file_shows_its_progress(agent: Path, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out.html"
    with terminal_stderr(monkeypatch) as written:
        assert main(["export", str(_a_session(agent)), "--format", "html", "-o", str(out)]) == 0
    assert b"exporting" in written and out.stat().st_size > 0


def test_export_to_this_terminal_shows_no_bar_over_it(agent: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    master, slave = pty.openpty()
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)  # never a full pty
    drain.start()
    with os.fdopen(slave, "w", encoding="utf-8") as stdout:
        monkeypatch.setattr(sys, "stdout", stdout)
        with terminal_stderr(monkeypatch) as written:
            assert main(["export", str(_a_session(agent))]) == 0
    drain.join(timeout=5)
    os.close(master)
    assert b"exporting" not in written


def _drain(fd: int) -> None:
    with contextlib.suppress(OSError):
        while os.read(fd, 65536):
            pass


@pytest.mark.parametrize("json", [False, True])
def test_nothing_but_problems_when_piped(agent: Path, capsys, json: bool) -> None:  # type: ignore[no-untyped-def]
    assert main(["list", "--all", *(["--json"] if json else [])]) == 0
    assert NOT_A_SESSION.fullmatch(capsys.readouterr().err)


def test_nothing_with_json_on_a_terminal(agent: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    with terminal_stderr(monkeypatch) as written:
        assert main(["list", "--all", "--json"]) == 0
    assert NOT_A_SESSION.fullmatch(written.replace(b"\r\n", b"\n").decode())


def test_progress_is_none_unless_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress.progress_on_stderr("indexing") as update:
        assert update is None
