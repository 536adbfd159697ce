"""`pitui move OLD NEW`: a project's sessions follow it to its new folder. Pi is the judge:
its listAll / list(cwd) find them under the new folders and none under the old, and its
context of each moved session is the original's."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from holder import holding

from pitui.cli import main
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.changes import relocate
from pitui.core.changes.fork import fork_session
from pitui.core.live.open_by import proc_available
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session

OLD = "/home/dev/projects/shop"
NEW = "/srv/work: new/shop 2"  # Pi's folder name replaces the ':'; the spaces stay
OTHER = "/home/dev/projects/shopping"  # a prefix of no folder of OLD's
STAMP = 1_600_000_000
LINE = b'{"type":"custom","customType":"x","id":"feedf00d","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z"}\n'


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Pi's agent folder: two sessions in OLD, one in a folder under it, one elsewhere."""
    agent = tmp_path / "agent"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    for seed, cwd in enumerate((OLD, OLD, OLD + "/api/v1", OTHER), start=1):
        _session(agent / "sessions", cwd, seed)
    return agent


def _session(root: Path, cwd: str, seed: int, folder: Path | None = None) -> Path:
    header, entries = generate_varied_session(random.Random(seed), cwd, start_ms=seed * 10**9)
    name = f"2026-01-0{seed}T00-00-00-000Z_{header['id']}.jsonl"
    path = write_session((folder or project_dir(root, cwd)) / name, header, entries)
    os.utime(path, (STAMP + seed, STAMP + seed))  # not just written (that is refused)
    return path


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _digest(root: Path) -> str:
    """Every file and folder of the store, names, bytes and times."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        h.update(f"{p.relative_to(root)}\0{st.st_mode}\0{st.st_mtime_ns}\0".encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def _move(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["move", *args, "--yes", "--json"])
    data = json.loads(capsys.readouterr().out)
    data["code"] = code
    return data


def _context(pi: Any, path: str) -> Any:
    found = pi.request({"op": "context", "file": path})
    return {k: found[k] for k in ("messages", "thinkingLevel", "model", "leafIds")}


@pytest.mark.oracle
def test_pi_finds_the_moved_sessions_under_the_new_folders(
    store: Path, pi_oracle: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = str(store)
    before = pi_oracle.request({"op": "listAllDefault", "agentDir": agent})
    by_id = {s["id"]: s for s in before}
    contexts = {s["id"]: _context(pi_oracle, s["path"]) for s in before}
    other = next(s for s in before if s["cwd"] == OTHER)
    other_bytes = Path(other["path"]).read_bytes()

    result = _move(capsys, OLD, NEW)
    assert result["code"] == 0 and len(result["moved"]) == 3
    assert result["skipped"] == result["failed"] == []
    names = sorted(p.name for p in (store / "sessions").iterdir())  # OLD's stay, emptied
    assert names == [
        "--home-dev-projects-shop--",
        "--home-dev-projects-shop-api-v1--",
        "--home-dev-projects-shopping--",
        "--srv-work- new-shop 2--",
        "--srv-work- new-shop 2-api-v1--",
    ]

    after = pi_oracle.request({"op": "listAllDefault", "agentDir": agent})
    assert sorted(s["id"] for s in after) == sorted(by_id)
    assert not [s for s in after if s["cwd"] == OLD or s["cwd"].startswith(OLD + "/")]
    for session in after:
        old = by_id[session["id"]]
        if old["cwd"] == OTHER:
            assert session == old and Path(session["path"]).read_bytes() == other_bytes
            continue
        assert session["cwd"] == NEW + old["cwd"][len(OLD) :]
        assert {k: v for k, v in session.items() if k not in ("path", "cwd")} == {
            k: v for k, v in old.items() if k not in ("path", "cwd")
        }
        assert _context(pi_oracle, session["path"]) == contexts[session["id"]]
        # `pi --resume` in the new folder lists it, as the one session of its folder's cwd
        listed = pi_oracle.request({"op": "listDefault", "agentDir": agent, "cwd": session["cwd"]})
        assert session["path"] in [s["path"] for s in listed]
    for cwd in (OLD, OLD + "/api/v1"):
        assert pi_oracle.request({"op": "listDefault", "agentDir": agent, "cwd": cwd}) == []


def test_moving_back_restores_every_byte(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = store / "sessions"
    original = _files(root)
    assert _move(capsys, OLD, NEW)["code"] == 0
    assert _files(root) != original
    back = _move(capsys, NEW, OLD)
    assert back["code"] == 0 and len(back["moved"]) == 3
    assert _files(root) == original


def _totals(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["stats", "--all", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out)["total"])


def _threads(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["list", "--all"]) == 0
    nested = [line for line in capsys.readouterr().out.splitlines() if "└─" in line]
    return [line.replace(NEW, "CWD").replace(OLD, "CWD") for line in nested]


def test_a_fork_still_names_its_parent_after_the_move(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Audit 3 item 1: a fork's copied replies count once (in its parent, which its
    `parentSession` names) and it stays nested under it, before and after the move; moving
    back gives every byte back."""
    root = store / "sessions"
    parent = sorted(project_dir(root, OLD).glob("*.jsonl"))[1]
    entries = Session(parent).tree.entries
    leaf = [e.id for e in entries if e.type == "message"][-1]
    made = fork_session(parent, leaf, parent.parent).path
    fork = made.with_name("2025-" + made.name[5:])  # listed before its parent: moved first
    made.rename(fork)  # unless the move takes parents first
    os.utime(fork, (STAMP, STAMP))
    original = _files(root)
    totals, nested = _totals(capsys), _threads(capsys)
    assert len(nested) == 1

    result = _move(capsys, OLD, NEW)
    assert result["code"] == 0 and len(result["moved"]) == 4
    new_parent = str(project_dir(root, NEW) / parent.name)
    [forked] = [m for m in result["moved"] if "newParentSession" in m]
    assert forked["parentSession"] == str(parent)
    assert forked["newParentSession"] == new_parent
    header = json.loads((project_dir(root, NEW) / fork.name).read_text().split("\n", 1)[0])
    assert header["parentSession"] == new_parent and header["cwd"] == NEW
    assert _totals(capsys) == totals and _threads(capsys) == nested

    assert main(["move", NEW, OLD, "--yes"]) == 0
    assert "parentSession of 1 fork" in capsys.readouterr().out
    assert _files(root) == original


def test_a_fork_left_by_a_first_run_follows_its_parent_on_the_next(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fork skipped the first time (a pi was writing it) names its parent's old path; run
    again, the move points it at where that run took the parent."""
    root = store / "sessions"
    parent = sorted(project_dir(root, OLD).glob("*.jsonl"))[1]
    leaf = [e.id for e in Session(parent).tree.entries if e.type == "message"][-1]
    fork = fork_session(parent, leaf, parent.parent).path
    os.utime(fork, (STAMP, STAMP))
    totals = _totals(capsys)
    taken = project_dir(root, NEW) / fork.name
    taken.parent.mkdir(parents=True)
    taken.write_bytes(b"in the way\n")  # the fork is skipped
    first = _move(capsys, OLD, NEW)
    assert [s["path"] for s in first["skipped"]] == [str(fork)] and len(first["moved"]) == 3
    taken.unlink()
    second = _move(capsys, OLD, NEW)
    assert [m["newParentSession"] for m in second["moved"]] == [
        str(project_dir(root, NEW) / parent.name)
    ]
    assert _totals(capsys) == totals and len(_threads(capsys)) == 1


def test_dry_run_writes_nothing(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", OLD, NEW, "--dry-run"]) == 0  # indexes the store (pitui's cache)
    printed = capsys.readouterr().out
    assert "would move 3 sessions" in printed and NEW in printed
    before = _digest(store)
    assert main(["move", OLD, NEW, "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dryRun"] is True and len(data["selected"]) == 3 and data["moved"] == []
    assert _digest(store) == before


def test_new_already_holding_sessions_keeps_them(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = store / "sessions"
    theirs = _session(root, NEW, 7)
    theirs_bytes = theirs.read_bytes()
    first = sorted(project_dir(root, OLD).glob("*.jsonl"))[0]
    taken = project_dir(root, NEW) / first.name  # a file already has its name there
    taken.write_bytes(b"not pitui's\n")
    first_bytes = first.read_bytes()
    result = _move(capsys, OLD, NEW)
    assert result["code"] == 0 and len(result["moved"]) == 2
    [skipped] = result["skipped"]
    assert skipped["path"] == str(first) and "exists" in skipped["reason"]
    assert taken.read_bytes() == b"not pitui's\n" and theirs.read_bytes() == theirs_bytes
    assert first.read_bytes() == first_bytes  # left where it was


def test_the_index_and_kept_answers_follow(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--all"]) == 0
    listed = capsys.readouterr().out
    assert OLD + "/api/v1" in listed and NEW not in listed
    assert main(["list", "--all"]) == 0 and capsys.readouterr().out == listed  # kept
    assert main(["list", "--all", "--json"]) == 0
    capsys.readouterr()
    moved = _move(capsys, OLD, NEW)
    assert moved["code"] == 0
    with Catalog(store / "sessions") as catalog:  # the index as the move left it, unscanned
        indexed = {s.path for s in catalog.sessions()}
    assert indexed == {m["target"] for m in moved["moved"]} | {
        str(p) for p in project_dir(store / "sessions", OTHER).glob("*.jsonl")
    }
    assert main(["list", "--all"]) == 0
    now = capsys.readouterr().out
    assert NEW + "/api/v1" in now and OLD + "/" not in now and f"{OLD} " not in now
    assert main(["list", "--all", "--json"]) == 0
    paths = {s["path"] for s in json.loads(capsys.readouterr().out)}
    assert paths == indexed


@pytest.mark.skipif(not proc_available(), reason="needs Linux /proc")
def test_a_session_held_open_is_skipped_unless_forced(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = store / "sessions"
    held = sorted(project_dir(root, OLD).glob("*.jsonl"))[0]
    held_bytes = held.read_bytes()
    with holding(held, "ab", name="pi") as process:
        assert main(["list", "--all", "--json"]) == 0
        [item] = [s for s in json.loads(capsys.readouterr().out) if s["path"] == str(held)]
        assert item["openBy"] == [{"pid": process.pid, "command": "pi"}]
        assert main(["move", OLD, NEW, "--dry-run"]) == 0  # says what the move will skip
        printed = capsys.readouterr().out
        assert "would move 2 sessions" in printed and "(1 skipped, above)" in printed
        assert f"would be skipped: {held.name} is open for writing" in printed
        assert main(["move", OLD, NEW, "--dry-run", "--json"]) == 0
        [preview] = json.loads(capsys.readouterr().out)["skipped"]
        result = _move(capsys, OLD, NEW)
        assert result["skipped"] == [preview]
        assert result["code"] == 0 and len(result["moved"]) == 2
        [skipped] = result["skipped"]
        assert skipped["path"] == str(held) and f"pid {process.pid} (pi)" in skipped["reason"]
        assert "--force" in skipped["reason"] and held.read_bytes() == held_bytes
        forced = _move(capsys, OLD, NEW, "--force")
        assert forced["code"] == 0 and [m["path"] for m in forced["moved"]] == [str(held)]
    target = project_dir(root, NEW) / held.name
    assert (
        not held.exists()
        and target.read_bytes().split(b"\n", 1)[1] == held_bytes.split(b"\n", 1)[1]
    )


@pytest.mark.oracle
def test_a_session_that_keeps_growing_is_refused_and_kept(
    store: Path,
    pi_oracle: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = store / "sessions"
    growing = sorted(project_dir(root, OLD).glob("*.jsonl"))[0]
    before = growing.read_bytes()
    real = relocate._unchanged_at

    def appended(path: Path, *args: object) -> bool:
        if path == growing:
            with open(path, "ab") as fh:  # another writer, each time pitui looks
                fh.write(LINE)
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(relocate, "_unchanged_at", appended)
    result = _move(capsys, OLD, NEW)
    assert result["code"] == 1 and len(result["moved"]) == 2
    [failed] = result["failed"]
    assert failed["path"] == str(growing) and "kept changing" in failed["reason"]
    assert growing.read_bytes() == before + LINE * relocate.ATTEMPTS
    assert not (project_dir(root, NEW) / growing.name).exists()
    entries = pi_oracle.request({"op": "context", "file": str(growing)})["leafIds"]
    assert entries[-1] == "feedf00d"  # Pi reads every line appended meanwhile


@pytest.mark.oracle
def test_a_custom_session_dir_is_rewritten_in_place(
    tmp_path: Path, store: Path, pi_oracle: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    paths = [_session(flat, cwd, seed, folder=flat) for seed, cwd in ((1, OLD), (2, OTHER))]
    original = _files(flat)
    contexts = [_context(pi_oracle, str(p)) for p in paths]
    result = _move(capsys, OLD, NEW, "--session-dir", str(flat))
    assert result["code"] == 0 and [m["target"] for m in result["moved"]] == [str(paths[0])]
    assert [
        s["path"] for s in pi_oracle.request({"op": "list", "cwd": NEW, "sessionDir": str(flat)})
    ] == [str(paths[0])]
    assert pi_oracle.request({"op": "list", "cwd": OLD, "sessionDir": str(flat)}) == []
    assert [_context(pi_oracle, str(p)) for p in paths] == contexts
    assert _move(capsys, NEW, OLD, "--session-dir", str(flat))["code"] == 0
    assert _files(flat) == original


def test_bad_input_is_one_line(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", OLD, OLD + "/sub", "--yes"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["move", OLD, NEW]) == 1  # not a terminal: say --yes
    err = capsys.readouterr().err
    assert "--yes" in err and err.count("\n") == 1
    assert main(["move", "/nowhere", NEW, "--yes"]) == 0
    assert "nothing to move" in capsys.readouterr().out


def test_with_nothing_moved_no_undo_is_offered(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Audit 3 item 10: a move whose every session was skipped says so, not "moved 0
    sessions (pitui move NEW OLD to undo)"."""
    root = store / "sessions"
    [only] = project_dir(root, OTHER).glob("*.jsonl")
    taken = project_dir(root, NEW) / only.name
    taken.parent.mkdir(parents=True)
    taken.write_bytes(b"not pitui's\n")
    assert main(["move", OTHER, NEW, "--yes"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(
        "exists: nothing was moved over it\nno session was moved (1 skipped, above)\n"
    )
    assert "undo" not in out


def test_new_there_and_not_a_folder_is_refused(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Audit 3 item 9: a file, a device or a dangling link is never a project's folder."""
    before = _digest(store)
    (tmp_path / "file").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "folder")
    for new in ("/dev/null", str(tmp_path / "file"), str(tmp_path / "dangling")):
        assert main(["move", OLD, new, "--dry-run"]) == 2
        captured = capsys.readouterr()
        assert captured.err == f"pitui: {new} is not a folder\n" and captured.out == ""
    assert _digest(store) == before
    for new in (str(tmp_path / "link"), str(tmp_path / "not yet")):
        assert main(["move", OLD, new, "--dry-run"]) == 0
        assert "would move 3 sessions" in capsys.readouterr().out


def test_on_a_terminal_it_asks_first(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = store / "sessions"
    before = _files(root)
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda q: (asked.append(q), "n")[1])
    assert main(["move", OLD, NEW]) == 1
    assert asked == ["Move 3 sessions? [y/N] "] and _files(root) == before
    assert "to move 3 sessions" in capsys.readouterr().out
    monkeypatch.setattr("builtins.input", lambda q: "y")
    assert main(["move", OLD, NEW]) == 0
    assert "moved 3 sessions" in capsys.readouterr().out and _files(root) != before
