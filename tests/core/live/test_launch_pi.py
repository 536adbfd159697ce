"""Handing off to pi: argument lists, never a shell string."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pitui.core.errors import PituiError
from pitui.core.live.launch_pi import (
    find_program,
    fork_argv,
    handoff_cwd,
    resolve_pi_command,
    resume_argv,
    run_handoff,
)


def test_pi_command_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PITUI_PI_COMMAND", raising=False)
    assert resolve_pi_command(None) == ["pi"]
    monkeypatch.setenv("PITUI_PI_COMMAND", "npx pi --verbose")
    assert resolve_pi_command(None) == ["npx", "pi", "--verbose"]
    assert resolve_pi_command("'/opt/my pi/bin/pi' --x") == ["/opt/my pi/bin/pi", "--x"]
    monkeypatch.setenv("PITUI_PI_COMMAND", "  ")
    assert resolve_pi_command(None) == ["pi"]


def test_shell_metacharacters_stay_arguments() -> None:
    assert resolve_pi_command("pi; rm -rf / && echo $HOME") == [
        "pi;",
        "rm",
        "-rf",
        "/",
        "&&",
        "echo",
        "$HOME",
    ]


def test_unbalanced_quotes_are_an_error() -> None:
    with pytest.raises(PituiError, match="cannot parse"):
        resolve_pi_command("pi 'oops")


def test_argv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert resume_argv("a b.jsonl", ["pi"]) == ["pi", "--session", str(tmp_path / "a b.jsonl")]
    assert fork_argv("/x/s.jsonl", ["npx", "pi"]) == ["npx", "pi", "--fork", "/x/s.jsonl"]


def test_cwd(tmp_path: Path) -> None:
    assert handoff_cwd(str(tmp_path)) == str(tmp_path)
    assert handoff_cwd(str(tmp_path / "gone")) is None
    assert handoff_cwd("") is None
    assert handoff_cwd(None) is None


def test_missing_pi(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_program(["pi"]) is None
    assert find_program([]) is None
    with pytest.raises(PituiError, match="not found"):
        run_handoff(["pi", "--session", "/x.jsonl"], None)


def test_run_handoff_runs_argv_in_cwd(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    script = "import os,sys; open(sys.argv[1],'w').write(os.getcwd()+'|'+sys.argv[2])"
    argv = [sys.executable, "-c", script, str(out), "$HOME; echo"]
    assert find_program(argv) is not None
    assert run_handoff(argv, str(tmp_path)) == 0
    assert out.read_text() == f"{tmp_path}|$HOME; echo"
    assert run_handoff([sys.executable, "-c", "raise SystemExit(3)"], None) == 3
