"""`pitui log` and `pitui blame`: a file's writes and edits across sessions, newest first,
and the call that last wrote each of its lines; scopes, JSON, inert text, bad input."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from file_edits import (
    CALC_AFTER,
    CALC_BEFORE,
    CALC_DETAILS,
    CALC_EDITS,
    EditingSession,
    sessions_folder,
)

from pitui.cli import main
from pitui.demo.builder import BASE_MS

HOUR = 3_600_000
LOG_KEYS = [
    *("path", "sessionId", "id", "tool", "timestamp", "added", "removed", "branch", "file"),
    "store",
]
BLAME_KEYS = ["line", "text", "path", "sessionId", "id", "timestamp", "store"]


def _json(capsys: pytest.CaptureFixture[str]) -> list[dict]:
    return json.loads(capsys.readouterr().out)


def _calc_history(project: Path) -> dict[str, str]:
    """src/calc.py written and edited by three sessions, one of them on two branches; failed
    calls and other files between."""
    one = EditingSession(project, seed=1)
    ids = {"write": one.write("src/calc.py", CALC_BEFORE)}
    one.edit("src/calc.py", "not in the file", "x", error=True)
    one.write("README.md", "# calc\n")
    one.builder.add("session_info", name="first \x1b[31mred\x1b[0m session")
    one.save(sessions_folder(project))
    two = EditingSession(project, seed=2, ms=BASE_MS + HOUR)
    ids["edit"] = two.call(
        "edit", {"path": str(project / "src/calc.py"), "edits": CALC_EDITS}, details=CALC_DETAILS
    )
    ids["tried"] = two.edit("src/calc.py", "def add", "def plus")
    two.branch_from(ids["edit"])
    ids["legacy"] = two.call(
        "edit",
        {"path": "src/calc.py", "oldText": "    return a - b", "newText": "    return b - a"},
    )
    two.save(sessions_folder(project))
    three = EditingSession(project / "src", seed=3, ms=BASE_MS + 2 * HOUR)  # run in src/
    ids["string"] = three.call(
        "edit",
        {
            "path": "calc.py",
            "edits": json.dumps({"oldText": "total = a + b", "newText": "total = b + a"}),
        },
    )
    three.save(sessions_folder(project))
    return ids


def test_log_newest_first_abandoned_marked_failed_left_out(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ids = _calc_history(project)
    assert main(["log", "src/calc.py", "--json"]) == 0
    found = _json(capsys)
    assert [c["id"] for c in found] == [
        ids["string"],
        ids["legacy"],
        ids["tried"],
        ids["edit"],
        ids["write"],
    ]
    assert all(list(c) == LOG_KEYS for c in found) and {c["store"] for c in found} == {"local"}
    assert {c["file"] for c in found} == {str(project / "src/calc.py")}
    assert [c["branch"] for c in found] == ["active", "active", "abandoned", "active", "active"]
    assert [(c["added"], c["removed"]) for c in found] == [(1, 1), (1, 1), (1, 1), (3, 2), (6, 0)]
    assert [c["tool"] for c in found][-1] == "write"
    assert len({c["sessionId"] for c in found}) == 3
    assert main(["log", "src/calc.py"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5
    assert lines[2].endswith(" (abandoned branch)") and "(abandoned" not in lines[1]
    assert f" {ids['edit']}  src/calc.py  work on the files (session 2)" in lines[3]
    assert "edit" in lines[0] and "+1 -1" in lines[0]
    assert "first ␛[31mred␛[0m session" in lines[4] and "\x1b" not in "".join(lines)


def test_log_of_a_folder_and_the_scopes(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _calc_history(project)
    elsewhere = EditingSession("/somewhere/else", seed=4, ms=BASE_MS + 3 * HOUR)
    far = elsewhere.write(str(project / "src/new.py"), "x = 1\n")
    elsewhere.save(sessions_folder(project))
    assert main(["log", ".", "--json"]) == 0
    files = [c["file"] for c in _json(capsys)]
    assert set(files) == {str(project / "src/calc.py"), str(project / "README.md")}
    assert main(["log", "src", "--all", "--json"]) == 0  # --all: the session run elsewhere too
    found = _json(capsys)
    assert found[0]["id"] == far and found[0]["file"] == str(project / "src/new.py")
    assert main(["log", "src/new.py"]) == 1  # only a session run elsewhere wrote it
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "--all" in captured.err


def test_log_exit_status_as_grep(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _calc_history(project)
    assert main(["log", "src/nothing.py", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [] and captured.err.startswith("pitui: no successful")
    assert main(["log", "src/calc.py", "--archived", "--everywhere"]) == 2  # a usage error


def test_blame_each_line_to_its_call_and_hand_changes(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    ids = _calc_history(project)
    now = CALC_AFTER.replace("def add", "def plus").replace("a + b", "b + a")
    lines = now.replace("a - b", "b - a").splitlines()
    lines.insert(3, "# added by hand")
    (project / "src/calc.py").write_text("\n".join(lines) + "\n")
    assert main(["blame", "src/calc.py", "--json"]) == 0
    found = _json(capsys)
    assert all(list(line) == BLAME_KEYS for line in found)
    assert [(b["line"], b["text"], b["id"]) for b in found] == [
        (1, "def plus(a, b):", ids["tried"]),  # the abandoned branch's edit did happen
        (2, "    total = b + a", ids["string"]),
        (3, "    return total", ids["edit"]),
        (4, "# added by hand", None),
        (5, "", ids["write"]),
        (6, "", ids["write"]),
        (7, "def subtract(a, b):", ids["edit"]),
        (8, "    return b - a", ids["legacy"]),
    ]
    assert (
        found[3]["sessionId"] is None and found[3]["path"] is None and found[3]["timestamp"] is None
    )
    assert [line["store"] for line in found] == ["local"] * 3 + [None] + ["local"] * 4
    assert main(["blame", "src/calc.py"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 8
    assert out[3] == "(no session wrote it)        | # added by hand"
    session, entry, day, bar = out[6].split()[:4]
    assert entry == ids["edit"] and bar == "|" and out[6].endswith("| def subtract(a, b):")
    assert len(session) == 8 and len(day) == 10


def test_blame_text_is_inert(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    s = EditingSession(project, seed=5)
    s.write("src/evil.txt", "ok\n\x1b]0;title\x07bell \u202eevil\n")
    s.write("src/\x1b[2Jname\n.txt", "x\n")
    s.save(sessions_folder(project))
    (project / "src/evil.txt").write_text("ok\n\x1b]0;title\x07bell \u202eevil\n")
    assert main(["blame", "src/evil.txt"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "␛]0;title␇bell <U+202E>evil" in out
    assert main(["log", "src"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and out.count("\n") == 2 and "src/␛[2Jname␊.txt" in out


def test_blame_bad_input_is_one_line(project: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _calc_history(project)
    assert main(["blame", "src/missing.py"]) == 1
    assert capsys.readouterr().err == "pitui: no such file: src/missing.py\n"
    assert main(["blame", "src"]) == 1
    assert "is a folder" in capsys.readouterr().err
    os.mkfifo(project / "pipe.txt")  # opened, it would wait for a writer forever
    assert main(["blame", "pipe.txt"]) == 1
    assert capsys.readouterr().err == "pitui: pipe.txt is not a regular file (a FIFO)\n"
    (project / "zeros.txt").symlink_to("/dev/zero")  # read, it would fill the memory
    assert main(["blame", "zeros.txt"]) == 1
    assert (
        capsys.readouterr().err == "pitui: zeros.txt is not a regular file (a character device)\n"
    )
    (project / "untouched.txt").write_text("never written by a session\n")
    assert main(["blame", "untouched.txt"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("pitui: no successful write or edit")


def test_sessions_are_never_written(project: Path) -> None:
    _calc_history(project)
    (project / "src/calc.py").write_text("anything\n")
    before = {p: p.read_bytes() for p in sessions_folder(project).rglob("*.jsonl")}
    assert main(["log", ".", "--all", "--json"]) == 0
    assert main(["blame", "src/calc.py"]) == 0
    assert {p: p.read_bytes() for p in sessions_folder(project).rglob("*.jsonl")} == before


def test_session_id_prefixes_grow_until_they_differ() -> None:
    from pitui.commands.support.file_scope import prefix_width, short_id

    same_minute = ["01a23475-86e4-72ed", "01a23475-8721-72ed"]
    assert prefix_width(same_minute) == 11
    assert prefix_width(["01a23475-86e4", "01b00000-0000"]) == 8
    assert prefix_width(["abc", "abc"]) == 8 and prefix_width([]) == 8
    assert prefix_width(["s1", "s1-longer"]) == 8  # one is all of the other's prefix
    assert short_id("\x1b[2Jxxxxxx", 8) == "␛[2Jxxxx" and short_id(7, 4) == "7   "


def test_log_and_blame_follow_a_project_pitui_move_moved(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`pitui move` rewrites only the sessions' header cwd: a write a session made by its
    absolute path under the old folder became "(no session wrote it)" in blame, and left
    the log, while its relative edits followed the move."""
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    session = EditingSession(project, seed=1)
    wrote = session.write(project / "src" / "calc.py", CALC_BEFORE)  # by its absolute path
    edited = session.call("edit", {"path": "src/calc.py", "edits": CALC_EDITS})
    saved = session.save(sessions_folder(project))
    os.utime(saved, (time.time() - 3600,) * 2)  # nobody is writing it
    other = EditingSession(project, seed=2)  # wrote one file, only by its absolute path
    other.write(project / "NOTES.md", "notes\n")
    os.utime(other.save(sessions_folder(project)), (time.time() - 3600,) * 2)
    (project / "src" / "calc.py").write_text(CALC_AFTER)
    moved = tmp_path / "renamed project"
    project.rename(moved)
    monkeypatch.chdir(moved)
    assert main(["move", str(project), str(moved), "--yes"]) == 0
    capsys.readouterr()
    assert main(["log", "src/calc.py", "--json"]) == 0
    logged = _json(capsys)
    assert [c["id"] for c in logged] == [edited, wrote]
    assert {c["file"] for c in logged} == {str(moved / "src" / "calc.py")}
    assert main(["blame", "src/calc.py", "--json"]) == 0
    assert {line["id"] for line in _json(capsys)} == {wrote, edited}  # every line explained
    assert main(["list", "--all", "--json", "file:NOTES.md"]) == 0  # the picker's filter
    assert [s["id"] for s in _json(capsys)] == [other.id]


def _file_history(**arguments: Any) -> dict[str, Any]:
    """MCP's `file_history` tool, as its server calls it (not through the SDK's client: the
    `mcp` package imported while output is captured keeps that capture as its stdio
    client's default stderr, which a later test then cannot use)."""
    from pitui.commands.mcp import _Tools

    tools = _Tools(None, False)
    try:
        return dict(tools.file_history(**arguments))
    finally:
        tools.catalogs.close()


def test_the_default_scope_holds_sessions_run_under_the_files_folder(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session run in a subfolder that named the file `../app.py` was out of the default
    scope: blame said "(no session wrote it)" for its line, with no word of `--all`."""
    one = EditingSession(project, seed=1)
    wrote = one.write("app.py", "import sys\n")
    one.save(sessions_folder(project))
    (project / "pkg" / "deep").mkdir(parents=True)
    two = EditingSession(project / "pkg" / "deep", seed=2, ms=BASE_MS + HOUR)
    edited = two.edit("../../app.py", "import sys\n", "import sys\nimport json\n")
    two.save(sessions_folder(project))
    beside = EditingSession(project.parent / "proj-other", seed=3, ms=BASE_MS + 2 * HOUR)
    beside.write(project / "app.py", "import sys\nimport json\n")  # run outside its folder
    beside.save(sessions_folder(project))
    (project / "app.py").write_text("import sys\nimport json\n# by hand\n")
    assert main(["log", "app.py", "--json"]) == 0
    assert [c["id"] for c in _json(capsys)] == [edited, wrote]
    assert main(["blame", "app.py", "--json"]) == 0
    captured = capsys.readouterr()
    assert [line["id"] for line in json.loads(captured.out)] == [wrote, edited, None]
    assert captured.err == (
        "pitui: 1 line of app.py was written by none of these sessions (--all reads every "
        "session, not only those run in a folder that holds it or under its folder)\n"
    )
    assert main(["blame", "app.py", "--all"]) == 0
    assert capsys.readouterr().err == ""  # --all read every session: nothing to add
    page = _file_history(path="app.py")
    assert [c["id"] for c in page["changes"]] == [edited, wrote]


def test_a_move_takes_every_sessions_earlier_writes_and_leaves_the_later_ones(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A session run in the project's parent (not moved) that edited `proj/src/calc.py`
    before `pitui move`: its edit left the moved file's log and blame, and showed in the log
    of a new file later made at the old path (as `file:` already answered)."""
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    inside = EditingSession(project, seed=1)
    wrote = inside.write("src/calc.py", CALC_BEFORE)
    os.utime(inside.save(sessions_folder(project)), (time.time() - 3600,) * 2)
    parent = EditingSession(tmp_path, seed=2, ms=BASE_MS + HOUR)  # not moved: not in proj
    edited = parent.call(
        "edit", {"path": "proj/src/calc.py", "edits": CALC_EDITS}, details=CALC_DETAILS
    )
    parent.save(sessions_folder(project))
    (project / "src" / "calc.py").write_text(CALC_AFTER)
    moved = tmp_path / "moved"
    project.rename(moved)
    assert main(["move", str(project), str(moved), "--yes"]) == 0
    monkeypatch.chdir(moved)
    capsys.readouterr()
    for scope in ([], ["--all"]):
        assert main(["log", "src/calc.py", "--json", *scope]) == 0
        assert [(c["id"], c["file"]) for c in _json(capsys)] == [
            (edited, str(moved / "src/calc.py")),
            (wrote, str(moved / "src/calc.py")),
        ]
    assert main(["blame", "src/calc.py", "--json"]) == 0
    assert {line["id"] for line in _json(capsys)} == {wrote, edited}  # every line explained
    page = _file_history(path="src/calc.py")
    assert [c["id"] for c in page["changes"]] == [edited, wrote]
    assert main(["list", "--all", "--json", "file:src/calc.py"]) == 0
    assert {s["id"] for s in _json(capsys)} == {inside.id, parent.id}
    # a new project at the old path, its file written after the move: only that write is its
    (project / "src").mkdir(parents=True)
    later = EditingSession(project, seed=3, ms=int(time.time() * 1000) + HOUR)
    new = later.write("src/calc.py", "print('new')\n")
    later.save(sessions_folder(project))
    (project / "src" / "calc.py").write_text("print('new')\n")
    monkeypatch.chdir(project)
    for scope in ([], ["--all"]):
        assert main(["log", "src/calc.py", "--json", *scope]) == 0
        assert [c["id"] for c in _json(capsys)] == [new]
    assert main(["blame", "src/calc.py", "--json"]) == 0
    assert [line["id"] for line in _json(capsys)] == [new]
    page = _file_history(path="src/calc.py", scope="all")
    assert [c["id"] for c in page["changes"]] == [new]
    monkeypatch.chdir(moved)
    assert main(["log", "src/calc.py", "--json", "--all"]) == 0
    assert [c["id"] for c in _json(capsys)] == [edited, wrote]  # the new write is not its


def test_an_archived_sessions_calls_are_marked_as_list_marks_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--archived` and `--everywhere` printed an archived session's calls as this folder's."""
    one = EditingSession(project, seed=1)
    wrote = one.write("app.py", "a\n")
    os.utime(one.save(sessions_folder(project)), (time.time() - 3600,) * 2)
    two = EditingSession(project, seed=2, ms=BASE_MS + HOUR)
    edited = two.edit("app.py", "a\n", "a\nb\n")
    archived = two.save(sessions_folder(project))
    os.utime(archived, (time.time() - 3600,) * 2)
    (project / "app.py").write_text("a\nb\n")
    assert main(["archive", str(archived), "--yes"]) == 0
    capsys.readouterr()
    assert main(["log", "app.py", "--everywhere"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"{edited}  app.py  (archived) work on the files (session 2)")
    assert out[1].endswith(f"{wrote}  app.py  work on the files (session 1)")
    assert main(["log", "app.py", "--everywhere", "--json"]) == 0
    assert [(c["id"], c["store"]) for c in _json(capsys)] == [(edited, "archive"), (wrote, "local")]
    assert main(["blame", "app.py", "--everywhere"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.split()[1] == wrote and first.endswith("            | a")  # aligned
    assert second.split()[1] == edited and second.endswith(" (archived) | b")
    assert first.index("|") == second.index("|")
    assert main(["blame", "app.py", "--archived", "--json"]) == 0
    assert [(line["id"], line["store"]) for line in _json(capsys)] == [
        (None, None),
        (edited, "archive"),
    ]
