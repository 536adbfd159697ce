"""What reaches the terminal from the CLI's one-line errors: the path named, never a raw
control character, never a hang on a file that is not a regular file."""

from __future__ import annotations

import os
from pathlib import Path

from reading_runner import run_commands


def test_the_app_on_a_fifo_says_what_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    [(code, out, err)] = run_commands([[str(fifo)]])
    assert code == 1 and out == ""
    assert err.strip() == f"pitui: {fifo} is not a regular file (a FIFO)"


def test_a_folder_is_named_in_the_error(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    results = run_commands([["context", str(folder)], ["tree", str(folder)]])
    for code, _, err in results:
        assert code == 1
        assert err.strip() == f"pitui: {folder} is not a regular file (a directory)"


def test_control_characters_in_an_error_are_shown_not_sent(tmp_path: Path) -> None:
    hostile = tmp_path / "evil\x1b[2J\x1b]52;c;AAAA\x07\x9b31m.jsonl"
    runs = [["context", str(hostile)], ["tree", str(hostile)], ["export", str(hostile)]]
    for code, _, err in run_commands(runs):
        assert code == 1 and err.startswith("pitui: ")
        assert not any((ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F for c in err), err
        assert "evil" in err  # the name is still there, made visible
