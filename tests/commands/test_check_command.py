"""`pitui check`: every departure from Pi's format per session; none in what Pi writes."""

from __future__ import annotations

import json
import os
import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from pi_written import write_pi_sessions

from pitui.cli import main
from pitui.demo.generate import MISSING_PARENT_ID, dumps, generate_varied_session


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(["check", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps(line) + "\n" for line in lines))
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(5))
    for previous, entry in pairwise(entries):
        if entry["parentId"] == MISSING_PARENT_ID:  # the demo's deliberate orphan, reattached
            entry["parentId"] = previous["id"]
    return _write(tmp_path / "good.jsonl", [header, *entries])


@pytest.mark.oracle
def test_sessions_pi_writes_have_no_departures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = write_pi_sessions(tmp_path)
    code, found = _check(capsys, *map(str, paths))
    assert code == 0
    assert found == [{"path": str(p), "problems": []} for p in paths]
    assert main(["check", "--all", "--session-dir", str(paths[0].parent)]) == 0
    assert "3 sessions checked: nothing departs" in capsys.readouterr().out


def test_a_conforming_session_passes(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _check(capsys, str(good)) == (0, [{"path": str(good), "problems": []}])


def test_broken_link_repeated_id_and_wrong_type_are_reported(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(good)
    lines[3]["parentId"] = "nowhere0"
    lines[-1]["id"] = lines[4]["id"]  # the last entry: no child loses its parent
    lines[7]["timestamp"] = 12
    _write(good, lines)
    code, [found] = _check(capsys, str(good))
    assert code == 1
    problems = [(p["line"], p["id"], p["problem"]) for p in found["problems"]]
    repeated = lines[4]["id"]
    assert (4, lines[3]["id"], "parentId nowhere0 is no entry's id") in problems
    assert (len(lines), repeated, f"id {repeated} repeats the id of line 5") in problems
    assert (8, lines[7]["id"], "timestamp: should be a valid string") in problems
    assert len(problems) == 3, problems


def test_text_report_and_lines_that_are_not_entries(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with good.open("a") as file:
        file.write('{"type": oops}\n{"type":"label"')
    assert main(["check", str(good)]) == 1
    out = capsys.readouterr().out
    count = len(_lines_text(good))
    assert out.startswith("2 departures from Pi's format in 1 of 1 session\n")
    assert f"{count - 1:>8}  -           " in out
    assert f"{count:>8}  -           the last line does not end with a newline" in out


def _lines_text(path: Path) -> list[str]:
    return path.read_text().split("\n")


def test_newer_formats_and_files_that_are_not_sessions(
    tmp_path: Path, good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(good)
    lines[0]["version"] = 4
    newer = _write(tmp_path / "v4.jsonl", lines)
    harness = tmp_path / "harness.jsonl"
    harness.write_text('{"kind":"header","version":4,"id":"h"}\n{"kind":"turn"}\n')
    other = tmp_path / "notes.jsonl"
    other.write_text("hello\n")
    code, found = _check(capsys, str(newer), str(harness), str(other))
    assert code == 1
    by_path = {Path(f["path"]).name: [p["problem"] for p in f["problems"]] for f in found}
    assert by_path["v4.jsonl"] == ["header: version 4 is newer than the format pitui reads (3)"]
    assert by_path["harness.jsonl"] == [
        "line 1 is a newer Pi session format that pitui cannot read yet"
    ]
    assert by_path["notes.jsonl"][0].startswith("not a Pi session: ")


def test_a_cycle_and_a_self_parent_are_reported(
    good: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines(good)
    lines[1]["parentId"] = lines[2]["id"]  # the root now hangs under its own child
    lines[-1]["parentId"] = lines[-1]["id"]
    _write(good, lines)
    code, [found] = _check(capsys, str(good))
    problems = [(p["line"], p["problem"]) for p in found["problems"]]
    assert code == 1
    assert problems == [
        (2, f"parentId {lines[2]['id']} closes a cycle"),
        (len(lines), "parentId is the entry's own id"),
    ]


def test_files_that_are_not_sessions_are_not_counted_as_sessions(
    good: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`pitui list` skips them as not sessions: check counts them apart, and says why."""
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "message-first.jsonl").write_text(dumps(_lines(good)[1]) + "\n")
    capsys.readouterr()
    assert main(["check", str(good), str(tmp_path / "empty.jsonl")]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert (
        first
        == "1 session checked: nothing departs from Pi's format; 1 file is not a session (below)."
    )
    assert "not a Pi session: the file is empty" in out
    assert main(["check", *map(str, sorted(tmp_path.glob("*.jsonl")))]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("of 1 session; 2 files are not sessions (below)") or (
        first == "1 session checked: nothing departs from Pi's format; 2 files are not "
        "sessions (below)."
    )
    assert main(["check", str(tmp_path)]) == 1  # a folder: not "a .jsonl file"
    assert "1 file is not a session" in capsys.readouterr().out


def test_a_session_dir_read_for_this_folder_says_what_it_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    for i, cwd in enumerate(["/elsewhere/a", "/elsewhere/b", str(tmp_path)]):
        header, entries = generate_varied_session(random.Random(i), cwd)
        _write(shared / f"s{i}.jsonl", [header, *entries])
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    main(["check", "--session-dir", str(shared)])
    said = capsys.readouterr()
    assert said.err == (
        "pitui: left out 2 sessions of the session folder started in other folders than this "
        "one (--all includes them)\n"
    )
    assert " of 1 session" in said.out or "1 session checked" in said.out
    main(["check", "--all", "--session-dir", str(shared)])
    assert capsys.readouterr().err == ""


def test_a_fifo_in_the_store_is_reported_and_the_rest_checked(
    tmp_path: Path, good: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Looking for what a headerless file continues opened it: `check --all` stopped at it."""
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    good.rename(folder / "good.jsonl")
    fifo = folder / "pipe.jsonl"
    os.mkfifo(fifo)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    code, found = _check(capsys, "--all")
    by_path = {Path(f["path"]).name: [p["problem"] for p in f["problems"]] for f in found}
    assert code == 1 and set(by_path) == {"good.jsonl", "pipe.jsonl"}
    assert by_path["pipe.jsonl"] == [f"not a Pi session: {fifo} is not a regular file (a FIFO)"]
