"""Only regular files are ever opened as a session: a FIFO, a device or a directory named
`*.jsonl` gets one line saying what it is, at once (never a hang, never runaway memory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reading_runner import TIMEOUT, run_commands

from pitui.core.regular_file import NotRegularFile, is_regular, open_regular


def special_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (path, what the message must call it)."""
    fifo = folder / "fifo.jsonl"
    os.mkfifo(fifo)
    zero = folder / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    urandom = folder / "urandom.jsonl"
    urandom.symlink_to("/dev/urandom")
    directory = folder / "dir.jsonl"
    directory.mkdir()
    return {
        "fifo": (fifo, "a FIFO"),
        "zero": (zero, "a character device"),
        "urandom": (urandom, "a character device"),
        "dir": (directory, "a directory"),
    }


COMMANDS = [
    ["context"],
    ["context", "--json"],
    ["tree"],
    ["tree", "--json"],
    ["label", "{file}", "some-id", "text", "--force"],
    ["name", "{file}", "a name", "--force"],
]


@pytest.mark.parametrize("kind", ["fifo", "zero", "urandom", "dir"])
def test_commands_refuse_special_files(tmp_path: Path, kind: str) -> None:
    path, what = special_files(tmp_path)[kind]
    runs = []
    for command in COMMANDS:
        rest = [str(path) if part == "{file}" else part for part in command[1:]]
        runs.append([command[0], *(rest if "{file}" in command else [str(path), *rest])])
    for command, (code, out, err) in zip(runs, run_commands(runs), strict=True):
        assert code == 1, (command, err)
        assert err == f"pitui: {path} is not a regular file ({what})\n", command
        assert out == ""


def test_open_regular_refuses_without_opening(tmp_path: Path) -> None:
    files = special_files(tmp_path)
    for path, what in files.values():
        assert not is_regular(path)
        with pytest.raises(NotRegularFile, match=what):
            os.close(open_regular(path))  # a FIFO would block here if it were opened
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(b"{}\n")
    assert is_regular(plain)
    fd = open_regular(plain)
    try:
        assert os.read(fd, 10) == b"{}\n"
    finally:
        os.close(fd)


def test_app_open_refuses_fifo(tmp_path: Path) -> None:
    """The TUI opens a session through the live hub: it refuses a FIFO too (run in a child
    process, so that a blocking open fails the test rather than hanging it)."""
    path, _ = special_files(tmp_path)["fifo"]
    code = (
        "import sys\n"
        "from pitui.core.live.live import LiveStore\n"
        "from pitui.core.session.reader import NotASession\n"
        "try:\n"
        f"    LiveStore([], watch=False).open({str(path)!r})\n"
        "except NotASession as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.stdout == f"{path} is not a regular file (a FIFO)\n", result.stderr
