"""What reaches the terminal from the CLI's one-line errors: the path named, never a raw
control character, never a hang on a file that is not a regular file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
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


def test_a_runaway_regex_ends_the_listing_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`re:(a|aa)+$` over a long run of "a": Python's `re` backtracks for ages (the child
    would hit the runner's timeout); the search stops at its budget and says so."""
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    stamp = "2026-01-01T00:00:00.000Z"
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": stamp, "cwd": "/w"}
    user = {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp,
            "message": {"role": "user", "content": "a" * 80 + "!", "timestamp": 1}}  # fmt: skip
    (folder / "s.jsonl").write_text(f"{json.dumps(header)}\n{json.dumps(user)}\n")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    [(code, out, err)] = run_commands([["list", "--all", "re:(a|aa)+$"]])
    assert code == 2 and out == ""  # the error alone, no empty table
    assert err == "pitui: Regular expression too slow: /(a|aa)+$/ took over 2 s; simplify it\n"


def test_a_session_dated_at_the_end_of_javascript_time_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    stamp = 8_640_000_000_000_000  # the last JavaScript time: year 275760
    header = {"type": "session", "version": 3, "id": "far", "timestamp": stamp, "cwd": "/w"}
    user = {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp,
            "message": {"role": "user", "content": "far", "timestamp": stamp}}  # fmt: skip
    (folder / "far.jsonl").write_text(f"{json.dumps(header)}\n{json.dumps(user)}\n")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    prune = ["prune", "--all", "--query", "far", "--dry-run"]
    runs = [["list", "--all"], ["list", "--all", "--json"], prune]
    [(code, out, err), (json_code, json_out, _), (prune_code, prune_out, _)] = run_commands(runs)
    assert code == 0 and err == ""
    assert out.splitlines()[1].startswith("+275760-09-13 00:00 UTC      1  far")
    assert json_code == 0
    [row] = json.loads(json_out)
    assert row["modified"] == "+275760-09-13T00:00:00.000Z"
    assert prune_code == 0 and "+275760-09-13 00:00 UTC" in prune_out


def test_a_terminal_that_is_not_utf8_gets_escapes_not_a_traceback(tmp_path: Path) -> None:
    """Under an ASCII or Latin-1 locale, standard output failed on the first `•`: each
    character it cannot carry is now written as a JSON escape (UTF-16 units), so the JSON
    keeps its value and the text stays readable."""
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    stamp = "2026-01-01T00:00:00.000Z"
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": stamp, "cwd": "/w"}
    user = {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp,
            "message": {"role": "user", "content": "café 😀 naïve", "timestamp": 1}}  # fmt: skip
    path = folder / "s.jsonl"
    path.write_text(f"{json.dumps(header)}\n{json.dumps(user)}\n", encoding="utf-8")
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(tmp_path / "agent"),
           "PITUI_CACHE_DIR": str(tmp_path / "cache")}  # fmt: skip
    outputs = {}
    for encoding in ("utf-8", "ascii", "latin-1"):
        for command in (["list", "--all", "--json"], ["tree", str(path)], ["context", str(path)]):
            result = subprocess.run(
                [sys.executable, "-m", "pitui", *command],
                env={**env, "PYTHONIOENCODING": encoding},
                capture_output=True,
                timeout=60,
            )
            assert result.returncode == 0 and b"Traceback" not in result.stderr, result.stderr
            outputs[encoding, command[0]] = result.stdout.decode(encoding)
    for encoding in ("ascii", "latin-1"):
        assert json.loads(outputs[encoding, "list"]) == json.loads(outputs["utf-8", "list"])
    assert outputs["ascii", "tree"].isascii()
    assert outputs["ascii", "tree"].startswith("u1  \\u2022 user: caf\\u00e9 \\ud83d\\ude00 na")
    assert outputs["latin-1", "tree"].startswith("u1  \\u2022 user: café \\ud83d\\ude00 naïve")


def test_a_day_that_does_not_exist_in_a_query_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    runs = [
        ["list", "after:2026-13-01"],
        ["list", "--all", "before:2026-02-30"],
        ["prune", "--all", "--query", "after:2026-12-32", "--dry-run"],
    ]
    said = ["after: 2026-13-01", "before: 2026-02-30", "after: 2026-12-32"]
    for (code, out, err), day in zip(run_commands(runs), said, strict=True):
        assert (code, out) == (2, "")
        assert err.startswith(f"pitui: {day} is not a day that exists") and err.count("\n") == 1


def test_a_session_dir_that_is_not_a_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    a_file = tmp_path / "s.jsonl"
    a_file.write_text("")
    commands = [["list"], ["stats"], ["secrets"], ["du"], ["prune", "--empty", "--dry-run"]]
    for where, said in [(tmp_path / "nope", "no such folder"), (a_file, "not a folder")]:
        runs = [[*command, "--session-dir", str(where)] for command in commands]
        for code, out, err in run_commands(runs):
            assert (code, out, err) == (1, "", f"pitui: --session-dir {where}: {said}\n")
