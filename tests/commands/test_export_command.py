"""`pitui export`: stdout, files that are never overwritten by surprise, names, errors."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from denied_folders import deny

from pitui.cli import main
from pitui.core.export.destination import proposed_name
from pitui.demo.generate import write_session

HEADER = {
    "type": "session",
    "version": 3,
    "id": "s1",
    "timestamp": "2025-01-01T00:00:00.000Z",
    "cwd": "/p",
}
KEY = "ghp_" + "a1B2c3D4" * 5


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    entries = [
        {
            "type": "message",
            "id": "a",
            "parentId": None,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": f"push with {KEY} please"},
        },
        {
            "type": "message",
            "id": "b",
            "parentId": "a",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "pushed"}]},
        },
        {
            "type": "session_info",
            "id": "n",
            "parentId": "b",
            "timestamp": "2025-01-01T00:00:03.000Z",
            "name": "../../etc/passwd\x1b[31m: a/b\\c",
        },
    ]
    return write_session(tmp_path / "in" / "s.jsonl", HEADER, entries)


def test_markdown_on_stdout_by_default(
    session_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(session_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ") and "push with" in out and "pushed" in out


def test_markdown_to_a_stdout_without_bytes(
    session_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stdout that takes only text (a StringIO, as when pitui is embedded) gets the same."""
    assert main(["export", str(session_file)]) == 0
    expected = capsys.readouterr().out
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["export", str(session_file)]) == 0
    assert text.getvalue() == expected and "push with" in expected


def test_redact_lists_kinds_on_stderr(
    session_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(session_file), "--redact"]) == 0
    captured = capsys.readouterr()
    assert KEY not in captured.out and "[REDACTED:github]" in captured.out
    assert "redacted 1: github 1" in captured.err


def test_output_file_is_never_overwritten_without_force(
    session_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.html"
    assert main(["export", str(session_file), "--format", "html", "-o", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    out.write_text("mine")
    assert main(["export", str(session_file), "-o", str(out)]) == 1
    assert "exists; use --force" in capsys.readouterr().err
    assert out.read_text() == "mine"
    assert main(["export", str(session_file), "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("# ")


def test_never_replaces_the_session_itself(
    session_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = session_file.read_bytes()
    assert (
        main(["export", str(session_file), "--format", "jsonl", "-o", str(session_file), "--force"])
        == 1
    )
    assert "is the session being exported" in capsys.readouterr().err
    assert session_file.read_bytes() == before


def test_folder_gets_a_safe_proposed_name(session_file: Path, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    assert main(["export", str(session_file), "-o", str(folder) + "/"]) == 0
    assert main(["export", str(session_file), "-o", str(folder), "--context"]) == 0
    assert main(["export", str(session_file), "-o", str(folder), "--format", "jsonl"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "etc-passwd-31m-a-b-c-context.md",
        "etc-passwd-31m-a-b-c.jsonl",
        "etc-passwd-31m-a-b-c.md",
    ]


@pytest.mark.parametrize(
    ("title", "stem"),
    [
        (
            "Search perf a very long session name that will not fit in the dialog at all",
            "Search-perf-a-very-long-session-name-that-will-not-fit-in",  # not "...-in-th"
        ),
        ("x" * 80, "x" * 60),  # no break to cut at
        ("short name", "short-name"),
    ],
)
def test_a_long_title_is_cut_between_two_words(title: str, stem: str) -> None:
    assert proposed_name(title, ".md") == stem + ".md"


@pytest.mark.parametrize(
    ("title", "extension", "context", "name"),
    [
        ("Fix the typos in posts/notes.md.", ".md", False, "Fix-the-typos-in-posts-notes.md"),
        ("Fix the typos in notes.md", ".md", True, "Fix-the-typos-in-notes.md-context.md"),
        ("Fix the typos in notes.md", ".html", False, "Fix-the-typos-in-notes.md.html"),
        ("Read NOTES.MD", ".md", False, "Read-NOTES.md"),
        (".md", ".md", False, "md.md"),
    ],
)
def test_proposed_name_never_doubles_the_extension(
    title: str, extension: str, context: bool, name: str
) -> None:
    assert proposed_name(title, extension, context) == name


def test_jsonl_is_a_session_file(session_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(session_file), "--format", "jsonl", "--leaf", "a"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["parentSession"] == str(session_file)
    assert [e["id"] for e in lines[1:]] == ["a"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--leaf", "nope"], "no entry with id 'nope'"),
        (["--format", "jsonl", "--context"], "--context has no jsonl form"),
        (["--max-tool-lines", "-1"], "--max-tool-lines must be 0 or more"),
        (["-o", "/nonexistent-dir/"], "pitui: /nonexistent-dir/ does not exist\n"),
        (["--format", "html", "-o", "/nonexistent-dir/"], "/nonexistent-dir/ does not exist"),
        (["-o", "{session}/"], ".jsonl/ is not a folder"),
    ],
)
def test_bad_input_is_one_line(
    session_file: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [arg.replace("{session}", str(session_file)) for arg in args]
    assert main(["export", str(session_file), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pitui: ") and message in err and err.count("\n") == 1


def test_not_a_session_and_whole_process(tmp_path: Path) -> None:
    bogus = tmp_path / "x.jsonl"
    bogus.write_text("hello\n")
    result = subprocess.run(
        [sys.executable, "-m", "pitui", "export", str(bogus)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        result.returncode == 1
        and result.stderr.startswith("pitui: ")
        and "Traceback" not in result.stderr
    )


def _one_line_error(capsys: pytest.CaptureFixture[str], *needles: str) -> None:
    err = capsys.readouterr().err
    assert err.startswith("pitui: ") and err.count("\n") == 1, err
    assert all(needle in err for needle in needles), err


@pytest.mark.parametrize("target", ["{locked}/", "{locked}/out.md"])
def test_a_folder_of_mode_000_is_one_line(
    session_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    deny(monkeypatch, locked, 0o000)
    assert main(["export", str(session_file), "-o", target.format(locked=locked)]) == 1
    _one_line_error(capsys, "permission denied")
    monkeypatch.undo()
    assert os.listdir(locked) == []


def test_force_into_a_folder_of_mode_555_is_one_line(
    session_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    (folder / "out.md").write_text("mine")
    deny(monkeypatch, folder, 0o555)
    assert main(["export", str(session_file), "-o", str(folder / "out.md"), "--force"]) == 1
    _one_line_error(capsys, "permission denied", "nothing was changed")
    monkeypatch.undo()
    assert os.listdir(folder) == ["out.md"] and (folder / "out.md").read_text() == "mine"


def test_a_file_name_over_255_bytes_is_one_line(
    session_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long_name = tmp_path / ("é" * 130 + ".md")
    assert main(["export", str(session_file), "-o", str(long_name)]) == 1
    _one_line_error(capsys, "File name too long")
    assert os.listdir(tmp_path) == ["in"]


def test_a_full_disk_leaves_no_file_and_a_retry_works(
    session_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The disk fills after 64 KiB (a faked ENOSPC): neither the cut export nor a temporary
    file stays behind, and the same command then writes the whole export."""
    big = write_session(
        tmp_path / "in" / "big.jsonl",
        HEADER,
        [
            {
                "type": "message",
                "id": "a",
                "parentId": None,
                "timestamp": "2025-01-01T00:00:01Z",
                "message": {"role": "user", "content": "x" * 200_000},
            }
        ],
    )
    out_folder = tmp_path / "out"
    out_folder.mkdir()
    real_write, room = os.write, [65_536]

    def full_disk(fd: int, data: Any) -> int:
        if room[0] == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = real_write(fd, bytes(data)[: room[0]])
        room[0] -= written
        return written

    monkeypatch.setattr(os, "write", full_disk)
    target = out_folder / "big.md"
    assert main(["export", str(big), "-o", str(target)]) == 1
    _one_line_error(capsys, "the disk is full")
    assert os.listdir(out_folder) == []
    monkeypatch.undo()
    assert main(["export", str(big), "-o", str(target)]) == 0
    assert target.read_text().count("x" * 200_000) == 1


def test_a_second_export_into_a_folder_gets_a_free_name(
    session_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    for _ in range(3):
        assert main(["export", str(session_file), "-o", str(folder) + "/"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "etc-passwd-31m-a-b-c-2.md",
        "etc-passwd-31m-a-b-c-3.md",
        "etc-passwd-31m-a-b-c.md",
    ]
    assert capsys.readouterr().err.splitlines()[-1] == f"wrote {folder}/etc-passwd-31m-a-b-c-3.md"


def test_a_newline_in_the_file_name_is_shown_not_printed(
    session_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(session_file), "-o", str(tmp_path / "new\nline.md")]) == 0
    assert capsys.readouterr().err == f"wrote {tmp_path}/new\u240aline.md\n"
    assert (tmp_path / "new\nline.md").read_text().startswith("# ")


def test_a_context_of_one_message_is_not_plural(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01Z",
           "message": {"role": "user", "content": "alone"}}  # fmt: skip
    path = write_session(tmp_path / "one.jsonl", HEADER, [one])
    assert main(["export", str(path), "--context"]) == 0
    assert "**Context:** exactly the 1 message sent to the model" in capsys.readouterr().out


def test_bidi_controls_stay_escaped_in_the_jsonl_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The source holds `\\u202e` escapes (a right-to-left override that makes text read
    otherwise on a terminal): the export keeps them escaped, as ESC and BEL are."""
    text = "price \u202e01$\u202c and \u2066isolate\u2069 \x1b[2J"
    user = {"type": "message", "id": "a", "parentId": None, "timestamp": "2025-01-01T00:00:01Z",
            "message": {"role": "user", "content": text}}  # fmt: skip
    path = tmp_path / "bidi.jsonl"
    path.write_text(f"{json.dumps(HEADER)}\n{json.dumps(user)}\n")  # escapes, as in the issue
    assert "\\u202e" in path.read_text() and "\u202e" not in path.read_text()
    assert main(["export", str(path), "--format", "jsonl"]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\u202e\u202c\u2066\u2069\x1b")
    assert json.loads(out.splitlines()[1])["message"]["content"] == text
