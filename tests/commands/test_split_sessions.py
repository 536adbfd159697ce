"""Issue 38 item 3: a session an idle pi holds (nothing open, its next append minutes away)
is not taken from under it without `--force`; and when it is, the lines pi writes at the old
path afterwards (a headerless continuation) join the session again, none lost: checked line
by line against a real appending process (`tests/appender.py`, open/append/close as Pi)."""

from __future__ import annotations

import errno
import json
import os
import shlex
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from send2trash import plat_other

from pitui.cli import main
from pitui.core.catalog.scan import discovery
from pitui.core.changes import archive as archive_module
from pitui.core.changes import continuation, move_file, write_guard
from pitui.core.live.pi_processes import running_pis
from tests.appender import run_writer, start_writer
from tests.holder import idle_pi

OLD = 1_600_000_000
SID = "0197a000-0000-7000-8000-000000000001"
ENTRIES = 20


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))  # the moves recorded
    for name in ("PI_CODING_AGENT_SESSION_DIR", "PITUI_ARCHIVE_DIR"):
        monkeypatch.delenv(name, raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def entry(i: int) -> str:
    """Entry `i` as the appender's stream writes it (ids 00000000, 00000001, ...)."""
    parent = f"{i - 1:08x}" if i > 0 else None
    line = {
        "type": "message",
        "id": f"{i:08x}",
        "parentId": parent,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "seq": i,
        "sid": SID,
        "message": {"role": "user", "content": f"line {i}"},
    }
    return json.dumps(line, separators=(",", ":")) + "\n"


def make_session(project: Path, name: str = "s", mtime: float | None = OLD) -> Path:
    """A session of `project` with entries 0..ENTRIES-1."""
    root = discovery.sessions_root()
    path = discovery.project_dir(root, str(project)) / f"2026-01-01T00-00-00-000Z_{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"type": "session", "version": 3, "id": SID, "timestamp": "t", "cwd": str(project)}
    path.write_text(json.dumps(header) + "\n" + "".join(entry(i) for i in range(ENTRIES)))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def seqs(path: Path) -> list[int]:
    """The `seq` of every entry line, in file order (the header has none)."""
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "session"
    return [json.loads(line)["seq"] for line in lines[1:]]


def archived(tmp_path: Path, path: Path) -> Path:
    return tmp_path / "agent" / "sessions-archive" / path.parent.name / path.name


def across_file_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    """Renames between two folders fail as between two file systems; within one they work."""
    real = move_file.rename_no_replace

    def rename(first: Path, second: Path) -> bool:
        if Path(first).parent != Path(second).parent:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real(first, second)

    monkeypatch.setattr(move_file, "rename_no_replace", rename)


def no_leftovers(*folders: Path) -> None:
    for folder in folders:
        assert [p.name for p in folder.iterdir() if ".pitui-" in p.name] == []


# --------------------------------------------------------------------------- an idle pi


def test_an_idle_pi_is_seen_by_its_name_and_folder(env: Path) -> None:
    with idle_pi(env) as pi:
        found = {p.pid: p for p in running_pis() or []}
        assert found[pi.pid].cwd == str(env) and found[pi.pid].command == "pi"
        assert found[pi.pid].started is not None


def test_archive_skips_the_newest_session_of_a_folder_an_idle_pi_runs_in(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = make_session(env, "older", OLD - 100)
    newest = make_session(env, "newest", OLD)
    with idle_pi(env) as pi:
        assert main(["archive", str(older), str(newest), "--dry-run"]) == 0  # says it first
        out = capsys.readouterr().out
        assert f"would be skipped: {newest.name} may be the session pi (pid {pi.pid})" in out
        assert "would move 1 session (" in out and "(1 skipped, above)" in out
        assert main(["archive", str(older), str(newest), "--yes", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["moved"] == [str(older)]
        assert [s["path"] for s in data["skipped"]] == [str(newest)]
        assert f"pid {pi.pid}" in data["skipped"][0]["reason"]
        assert newest.exists()
        assert main(["archive", str(newest), "--yes", "--force"]) == 0
    assert archived(tmp_path, newest).exists() and not newest.exists()


def test_no_pi_there_no_skip(env: Path, tmp_path: Path) -> None:
    path = make_session(env)
    with idle_pi(tmp_path):  # a pi in another folder
        assert main(["archive", str(path), "--yes"]) == 0
    assert not path.exists()


def test_move_skips_a_session_a_pi_in_the_moved_folder_may_write(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_session(env)
    moved = tmp_path / "renamed"
    env.rename(moved)  # the folder was renamed while pi ran in it: its cwd follows
    with idle_pi(moved):
        assert main(["move", str(env), str(moved), "--yes", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["moved"] == [] and data["skipped"][0]["path"] == str(path)
    assert path.exists()


# --------------------------------------------------------------------------- continuations


def test_unarchive_joins_the_lines_pi_wrote_after_the_archive(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_session(env)
    assert main(["archive", str(path), "--yes"]) == 0
    run_writer(["stream", str(path), ENTRIES, 5, 1000, SID])  # an idle pi's next lines
    capsys.readouterr()
    assert main(["list", "--json"]) == 0  # Pi does not list a headerless file
    assert str(path) not in capsys.readouterr().out
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)
    assert report["continues"]["store"] == "archive"
    assert report["continues"]["fix"] == f"pitui unarchive {archived(tmp_path, path)}"
    assert main(["unarchive", str(archived(tmp_path, path)), "--yes"]) == 0
    assert seqs(path) == list(range(ENTRIES + 5))
    assert not archived(tmp_path, path).exists()


def test_unarchive_still_refuses_another_file_at_the_path(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_session(env)
    assert main(["archive", str(path), "--yes"]) == 0
    path.write_text(entry(99).replace('"parentId":"00000062"', '"parentId":"nowhere"'))
    assert main(["unarchive", str(archived(tmp_path, path)), "--yes"]) == 1
    assert "exists" in capsys.readouterr().out
    assert archived(tmp_path, path).exists()


def test_restore_joins_the_lines_pi_wrote_after_the_trash(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_home = tmp_path / "xdg-data"  # a trash of its own (as test_prune_restore's)
    data_home.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data_home))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", str(data_home / "Trash"))
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)
    path = make_session(env)
    assert main(["trash", str(path)]) == 0
    run_writer(["stream", str(path), ENTRIES, 3, 1000, SID])
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)
    assert report["continues"]["store"] == "trash"
    assert main(["restore", str(path)]) == 0
    assert seqs(path) == list(range(ENTRIES + 3))


def test_moving_again_joins_the_lines_a_pi_left_at_the_old_folder(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_session(env)
    new = tmp_path / "new"
    assert main(["move", str(env), str(new), "--yes"]) == 0
    target = discovery.project_dir(discovery.sessions_root(), str(new)) / path.name
    run_writer(["stream", str(path), ENTRIES, 4, 1000, SID])  # the pi started at OLD
    capsys.readouterr()
    assert main(["check", str(path)]) == 1
    assert f"; pitui move {env} {new} again joins them" in capsys.readouterr().out
    assert main(["move", str(env), str(new), "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rejoined"] == [{"path": str(path), "session": str(target), "lines": 4}]
    assert not path.exists()
    assert seqs(target) == list(range(ENTRIES + 4))
    run_writer(["stream", str(path), ENTRIES + 4, 1, 1000, SID])
    assert main(["move", str(env), str(new), "--yes"]) == 0  # only joins: nothing to undo
    out = capsys.readouterr().out
    assert (
        out.endswith("joined 1 file to the sessions they continue; no session was moved\n")
        and "undo" not in out
    )
    assert seqs(target) == list(range(ENTRIES + 5))


def test_check_names_the_folder_a_session_moved_from_when_pitui_recorded_it(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Audit 3 item 10: the fix `pitui check` prints for lines a pi left at the old folder
    names that folder, through each recorded move (here twice, from a subfolder); without a
    record it says what to fill in."""
    sub = env / "api v2"
    sub.mkdir()
    path = make_session(sub)
    new, last = tmp_path / "new", tmp_path / "last"
    assert main(["move", str(env), str(new), "--yes"]) == 0
    assert main(["move", str(new), str(last), "--yes"]) == 0
    run_writer(["stream", str(path), ENTRIES, 1, 1000, SID])  # the pi started in OLD/api v2
    capsys.readouterr()
    assert main(["check", str(path), "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)
    fix = f"pitui move {shlex.quote(str(sub))} {shlex.quote(str(last / sub.name))} again"
    assert report["continues"]["fix"] == fix
    assert main(["move", str(sub), str(last / sub.name), "--yes"]) == 0  # the fix joins them
    assert "joined 1 line" in capsys.readouterr().out and not path.exists()
    run_writer(["stream", str(path), ENTRIES + 1, 1, 1000, SID])
    shutil.rmtree(tmp_path / "data")  # no record: OLD is for the user to fill in
    assert main(["check", str(path)]) == 1
    said = capsys.readouterr().out
    assert f"pitui move OLD {shlex.quote(str(last / sub.name))} (OLD: the folder" in said


def test_the_lines_a_move_joined_are_its_own_write(
    env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Audit 3 item 6: the session the lines joined is not taken, by any pitui process, for
    one another program has just changed: moving it on at once is not refused."""
    monkeypatch.setattr(write_guard, "RECENT_SECONDS", 3600.0)  # however long a step takes
    path = make_session(env)
    new = tmp_path / "new"
    assert main(["move", str(env), str(new), "--yes"]) == 0
    target = discovery.project_dir(discovery.sessions_root(), str(new)) / path.name
    run_writer(["stream", str(path), ENTRIES, 2, 1000, SID])
    capsys.readouterr()
    assert main(["move", str(env), str(new), "--yes", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rejoined"][0]["lines"] == 2
    monkeypatch.setattr(write_guard, "_own_writes", {})  # as another pitui process sees it
    assert write_guard.activity_warning(target) is None
    back = tmp_path / "back"
    assert main(["move", str(new), str(back), "--yes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skipped"] == [] and [m["path"] for m in data["moved"]] == [str(target)]
    moved = discovery.project_dir(discovery.sessions_root(), str(back)) / path.name
    run_writer(["stream", str(moved), ENTRIES + 2, 1, 1000, SID])  # another program's line
    assert write_guard.activity_warning(moved) is not None


@pytest.mark.slow
@pytest.mark.parametrize("across", [False, True], ids=["one file system", "two"])
def test_archive_and_unarchive_while_a_writer_appends_lose_no_line(
    env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    across: bool,
) -> None:
    """A writer appends 1,200 lines (open/append/close each, 200 a second, a new file each
    time one is taken); the session is archived after the first 100 and unarchived 4.5 s
    later while it still appends: every line is in the session at the end, once, in the
    order written."""
    if across:
        across_file_systems(monkeypatch)
    path = make_session(env)
    first, second, third = 100, 900, 200
    writer = start_writer(
        ["stream", str(path), ENTRIES, first, 200, SID],
        ["signal", "archive now"],
        ["stream", str(path), ENTRIES + first, second, 200, SID],
        ["signal", "unarchive now"],
        ["stream", str(path), ENTRIES + first + second, third, 200, SID],
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "archive now"
    assert main(["archive", str(path), "--yes", "--force"]) == 0
    assert writer.stdout.readline().strip() == "unarchive now"
    capsys.readouterr()
    assert main(["unarchive", str(archived(tmp_path, path)), "--yes", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moved"] == [str(archived(tmp_path, path))]
    assert writer.wait(timeout=60) == 0
    assert seqs(path) == list(range(ENTRIES + first + second + third))
    assert not archived(tmp_path, path).exists()
    no_leftovers(path.parent, archived(tmp_path, path).parent)


def test_a_line_appended_between_the_compare_and_the_rename_goes_with_the_copy(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cross-file-system window: a line appended just after the copy was found equal
    to the source is in the archived copy, and nothing is left at the old path."""
    across_file_systems(monkeypatch)
    path = make_session(env)
    real = move_file._only_appended

    def then_append(source: Path, before: os.stat_result) -> bool:
        same = real(source, before)
        run_writer(["append", str(source), entry(ENTRIES)])  # right after the check
        return same

    monkeypatch.setattr(move_file, "_only_appended", then_append)
    assert main(["archive", str(path), "--yes"]) == 0
    assert not path.exists()
    assert seqs(archived(tmp_path, path)) == list(range(ENTRIES + 1))
    no_leftovers(path.parent)


@pytest.mark.oracle
def test_pi_reads_the_session_joined_back_whole(
    env: Path, tmp_path: Path, pi_oracle: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pi 1.6.0 is the judge: the headerless file is no session to Pi (nothing listed, an
    empty context); once unarchived, Pi lists the session at its path, its context holds
    every entry in order and its leaf is the last line the pi wrote."""
    path = make_session(env)
    agent = str(tmp_path / "agent")
    assert main(["archive", str(path), "--yes"]) == 0
    run_writer(["stream", str(path), ENTRIES, 6, 1000, SID])
    assert pi_oracle.request({"op": "listAllDefault", "agentDir": agent}) == []
    assert pi_oracle.request({"op": "context", "file": str(path)})["leafIds"] == []
    assert main(["unarchive", str(archived(tmp_path, path)), "--yes"]) == 0
    [listed] = pi_oracle.request({"op": "listAllDefault", "agentDir": agent})
    assert listed["path"] == str(path)
    context = pi_oracle.request({"op": "context", "file": str(path)})
    assert context["leafIds"] == [f"{i:08x}" for i in range(ENTRIES + 6)]


def test_a_file_put_at_the_path_while_unarchiving_is_never_moved_over(
    env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A continuation taken, then another session's file appears at the path before the
    session is put back: the session goes back to the archive with the joined lines, and
    the other file is left as it is."""
    path = make_session(env)
    assert main(["archive", str(path), "--yes"]) == 0
    run_writer(["stream", str(path), ENTRIES, 2, 1000, SID])
    real = archive_module.rename_never_over

    def someone_else_first(source: Path, target: Path) -> None:
        if target == path:
            target.write_text('{"type":"session","id":"other"}\n')
        real(source, target)

    monkeypatch.setattr(archive_module, "rename_never_over", someone_else_first)
    assert main(["unarchive", str(archived(tmp_path, path)), "--yes"]) == 1
    assert "another file" in capsys.readouterr().out
    assert path.read_text() == '{"type":"session","id":"other"}\n'
    assert seqs(archived(tmp_path, path)) == list(range(ENTRIES + 2))
    no_leftovers(path.parent)


@pytest.mark.parametrize("line_comes", [True, False], ids=["its line comes", "it stays empty"])
def test_a_file_a_writer_has_just_made_at_the_path_is_waited_for(
    env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line_comes: bool,
) -> None:
    """Pi opens the path (making an empty file), then appends its entry: a file found empty
    at the path just after a continuation was taken is waited for; once its line is there
    it is joined like any continuation, and a file that stays empty is never moved over."""
    path = make_session(env)
    assert main(["archive", str(path), "--yes"]) == 0
    run_writer(["stream", str(path), ENTRIES, 2, 1000, SID])
    real = archive_module.rename_never_over
    opened: list[Path] = []

    def a_writer_opens_first(source: Path, target: Path) -> None:
        if target == path and not opened:
            opened.append(target)
            target.touch()
            if line_comes:
                later = threading.Timer(
                    0.3, run_writer, [["append", str(path), entry(ENTRIES + 2)]]
                )
                later.start()
        real(source, target)

    monkeypatch.setattr(archive_module, "rename_never_over", a_writer_opens_first)
    code = main(["unarchive", str(archived(tmp_path, path)), "--yes"])
    if line_comes:
        assert code == 0
        assert seqs(path) == list(range(ENTRIES + 3))
        assert not archived(tmp_path, path).exists()
    else:
        assert code == 1 and "another file" in capsys.readouterr().out
        assert path.read_bytes() == b""
        assert seqs(archived(tmp_path, path)) == list(range(ENTRIES + 2))
    no_leftovers(path.parent)


def test_a_line_written_into_a_taken_continuation_stays_before_the_next(tmp_path: Path) -> None:
    """A writer opened the continuation for its next line just before it was taken: the line
    goes into the file set aside, then the writer makes a new continuation (whose first
    entry's parent is that line). Joined, the lines keep the order they were written in."""
    session = tmp_path / ".s.jsonl.staged"
    header = {"type": "session", "version": 3, "id": SID, "timestamp": "t", "cwd": "/p"}
    session.write_text(json.dumps(header) + "\n" + "".join(entry(i) for i in range(3)))
    target = tmp_path / "s.jsonl"
    target.write_text(entry(3))
    held = os.open(target, os.O_WRONLY | os.O_APPEND)  # the writer's next line

    def place() -> None:
        if os.path.lexists(target):
            raise FileExistsError(target)
        if held_open:
            os.write(held, entry(4).encode())  # into the file just set aside
            os.close(held)
            held_open.clear()
            target.write_text(entry(5))  # its next line makes a new continuation
            raise FileExistsError(target)
        os.rename(session, target)

    held_open = [True]
    assert continuation.place_joining(session, target, place) == 3
    assert seqs(target) == list(range(6))
    assert [p.name for p in tmp_path.iterdir()] == ["s.jsonl"]
