"""`pitui --help` lists one subcommand a line, `--version` prints the version, and a folder
given as the session file is named as a folder."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from pitui.cli import SUBCOMMANDS, main
from pitui.commands import app as app_command


def test_help_lists_one_subcommand_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    columns = set()
    for name, text in SUBCOMMANDS.items():
        [line] = [line for line in lines if line.split()[:2] == ["pitui", name]]
        assert line.endswith(f"  {text}")
        columns.add(line.index(text))
    assert len(columns) == 1  # every description starts in the same column


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("pitui ") and len(out.split()) >= 2


def test_a_folder_is_named_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_command, "require_terminal", lambda: None)  # as on a terminal
    assert main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: ") and "is a folder" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [[], ["--demo"], ["--all"]])
def test_the_browser_without_a_terminal_is_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under pytest stdin and stdout are not terminals: it wrote escapes into the pipe and
    waited for keys for ever."""
    monkeypatch.setattr(sys, "stdin", io.StringIO())  # not a terminal, even under `pytest -s`
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "pitui: the browser needs a terminal (stdin and stdout); pitui list prints the sessions\n"
    )


def test_an_empty_file_name_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pitui ""` opened the browser on the sessions instead."""
    monkeypatch.setattr(app_command, "require_terminal", lambda: None)
    assert main([""]) == 1
    assert capsys.readouterr().err == "pitui: no such session file: '' (an empty name)\n"
