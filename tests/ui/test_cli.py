"""`pitui --help` lists one subcommand a line, `--version` prints the version, and a folder
given as the session file is named as a folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.cli import SUBCOMMANDS, main


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


def test_a_folder_is_named_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: ") and "is a folder" in err and "Traceback" not in err
