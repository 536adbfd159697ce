"""`pitui remote` / `pitui sync` / `pitui list --remote`, against a real OpenSSH server on
127.0.0.1 (tests/remote_server.py) whose "remote" is a folder of this machine: the mirror
holds the remote's sessions, an append moves only its bytes, a rewrite and a deletion
follow, a remote that is down or whose host key changed is one line and its mirror stays."""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from file_edits import EditingSession
from remote_server import SshServer, ssh_server  # noqa: F401 (the fixture)
from terminal_stderr import terminal_stderr
from textual.message import Message
from waiting import wait_for

from pitui.cli import main
from pitui.commands.support import progress
from pitui.core.catalog.scan import discovery
from pitui.core.remotes import sync
from pitui.core.remotes.config import Remote, load_remotes, save_remotes
from pitui.core.remotes.mirror import age_text, mirror_dir
from pitui.core.remotes.remote_run import resume_mirrored
from pitui.core.remotes.ssh import NEVER_PROMPT
from pitui.core.remotes.sync import sync_remote
from pitui.demo.builder import BASE_MS
from pitui.demo.generate import generate_varied_session, session_path, write_session
from pitui.ui.worker_messages import RemotesSynced
from tests.ui.ui_helpers import plain, toasts

OLD = 1_600_000_000


@pytest.fixture
def remote_agent(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ssh_server: SshServer,  # noqa: F811
) -> Path:
    """A remote's agent folder (a path with spaces and quotes) holding three sessions, the
    remote `box` added for it; this machine's own folders apart."""
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "local-agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("PI_CODING_AGENT_SESSION_DIR", "PITUI_ARCHIVE_DIR"):
        monkeypatch.delenv(name, raising=False)
    known_hosts = tmp_path / "known_hosts"  # each test meets the server's key anew
    command = ssh_server.ssh_command.replace(
        f"UserKnownHostsFile={ssh_server.folder / 'known_hosts'}",
        f"UserKnownHostsFile={known_hosts}",
    )
    monkeypatch.setenv("PITUI_SSH_COMMAND", command)
    agent = tmp_path / 'it\'s a "remote" $HOME' / "agent"
    rng = random.Random(3)
    for i in range(3):
        header, entries = generate_varied_session(
            rng, f"/srv/project {i % 2}", start_ms=1_750_000_000_000 + i * 9_000_000
        )
        path = write_session(session_path(agent / "sessions", header), header, entries)
        os.utime(path, (OLD + i, OLD + i))
    monkeypatch.chdir(tmp_path)
    assert main(["remote", "add", "box", "root@127.0.0.1", "--agent-dir", str(agent)]) == 0
    return agent


def _sessions(agent: Path) -> list[Path]:
    return sorted((agent / "sessions").glob("*/*.jsonl"))


def _mirrored(agent: Path, path: Path) -> Path:
    return mirror_dir("box") / path.relative_to(agent / "sessions")


def _sync(capsys: pytest.CaptureFixture[str], *names: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    status = main(["sync", "--json", *names])
    return status, json.loads(capsys.readouterr().out)


def _listing(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["list", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_remote_add_list_remove(remote_agent: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert load_remotes()["box"] == Remote("box", "root@127.0.0.1", str(remote_agent))
    assert main(["remote", "add", "box", "other"]) == 2  # the name is taken
    assert main(["remote", "add", "all", "other"]) == 2  # a store's name
    assert main(["remote", "add", "x", "--", "-oProxyCommand=boom"]) == 2  # an ssh option
    for host in (
        "ssh://-oProxyCommand=boom",
        "ssh://me@-oProxyCommand=boom",
        "me@-oProxyCommand=boom",
        "ssh://-l@box:22",
        "box\u0085",
        "ssh://@box",
    ):
        assert main(["remote", "add", "x", "--", host]) == 2, host  # fmt: skip
    assert "x" not in load_remotes()
    capsys.readouterr()
    assert main(["remote", "list"]) == 0
    assert "box  root@127.0.0.1" in capsys.readouterr().out
    assert main(["remote", "remove", "box"]) == 0
    assert load_remotes() == {}
    assert main(["remote", "remove", "box"]) == 2


def test_remote_list_shows_a_pitui_command_that_is_not_the_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `remote set --pitui-command` said it set is in `remote list` (and its JSON)."""
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))  # not the worker's
    assert main(["remote", "add", "box", "root@127.0.0.1", "--no-test"]) == 0
    assert main(["remote", "add", "plain", "root@127.0.0.2", "--no-test"]) == 0
    assert main(["remote", "set", "box", "--pitui-command", "/opt/pitui", "--no-test"]) == 0
    assert "(pitui there: /opt/pitui)" in capsys.readouterr().out
    assert main(["remote", "list"]) == 0
    box, plain = capsys.readouterr().out.splitlines()
    assert box.startswith("box  root@127.0.0.1  ~/.pi/agent  (pitui there: /opt/pitui)  (")
    assert plain.startswith("plain  root@127.0.0.2  ~/.pi/agent  (") and "pitui there" not in plain
    assert main(["remote", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["pituiCommand"] for r in data] == ["/opt/pitui", "pitui"]


def test_sync_mirrors_the_sessions_and_lists_them_as_the_remote_does(
    remote_agent: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, report = _sync(capsys)
    originals = _sessions(remote_agent)
    assert status == 0
    [box] = report["remotes"]  # type: ignore[misc]
    assert box["name"] == "box" and box["error"] is None and box["files"] == 3
    assert report["bytes"] == box["bytes"] >= sum(p.stat().st_size for p in originals)
    for path in originals:
        mirrored = _mirrored(remote_agent, path)
        assert mirrored.read_bytes() == path.read_bytes()
        assert not mirrored.stat().st_mode & 0o222  # read-only

    mirrored = _listing(capsys, "--remote", "box")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(remote_agent))  # the remote's own listing
    own = _listing(capsys, "--all", "--no-remotes")  # the remote adds no remote of its own
    assert [d["remotePath"] for d in mirrored] == [d["path"] for d in own]
    assert {d["store"] for d in mirrored} == {"box"} and {d["store"] for d in own} == {"local"}
    strip = ("path", "store", "remotePath")
    assert [{k: v for k, v in d.items() if k not in strip} for d in mirrored] == [
        {k: v for k, v in d.items() if k not in strip} for d in own
    ]


def test_a_sync_where_files_vanished_worked_and_says_the_mirrors_size(
    remote_agent: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """rsync's status 24 (a file deleted there mid-transfer) is a sync that worked, with a
    note: it was "mirror kept: never synced" after 300 MB were mirrored. An rsync on PATH
    runs the real one and ends with 24 as that rsync would."""
    shim = tmp_path / "bin"
    shim.mkdir()
    real = shutil.which("rsync")
    (shim / "rsync").write_text(f'#!/bin/sh\n{real} "$@" || exit $?\nexit 24\n')
    (shim / "rsync").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    status, report = _sync(capsys)
    [box] = report["remotes"]  # type: ignore[misc]
    assert status == 0 and box["error"] is None and box["files"] == 3
    assert "vanished" in box["note"]
    size = sum(p.stat().st_size for p in _sessions(remote_agent))
    assert box["mirrorBytes"] == size and box["warning"] is None
    assert age_text("box").startswith("synced")
    for path in _sessions(remote_agent):
        assert _mirrored(remote_agent, path).read_bytes() == path.read_bytes()

    monkeypatch.setattr(sync, "MIRROR_WARNING", size - 1)
    assert main(["sync"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith("box: 0 files, ") and "the mirror holds " in said.out
    note, warning = said.err.splitlines()
    assert note.startswith("pitui: box: some files vanished on the remote")
    assert warning.startswith("pitui: box: its mirror holds ") and "remote remove box" in warning


def test_sync_reports_rsyncs_progress_and_mirrors_the_same(remote_agent: Path) -> None:
    said: list[tuple[int, int]] = []
    result = sync_remote(load_remotes()["box"], lambda done, total: said.append((done, total)))
    assert result.error is None and result.files == 3
    assert said and said[-1] == (100, 100)
    assert all(total == 100 and 0 <= done <= 100 for done, total in said)
    assert [done for done, _ in said] == sorted(done for done, _ in said)
    for path in _sessions(remote_agent):
        assert _mirrored(remote_agent, path).read_bytes() == path.read_bytes()


def test_sync_shows_each_remote_on_a_terminal(
    remote_agent: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setenv("TERM", "xterm-256color")
    with terminal_stderr(monkeypatch) as written:
        assert main(["sync"]) == 0
    assert b"syncing box" in written
    assert capsys.readouterr().out.startswith("box: 3 files, ")


@pytest.mark.parametrize("json_output", [False, True])
def test_sync_shows_no_progress_when_piped_or_with_json(
    remote_agent: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    json_output: bool,
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    argv = ["sync", *(["--json"] if json_output else [])]
    capsys.readouterr()
    assert main(argv) == 0
    assert capsys.readouterr().err == ""
    with terminal_stderr(monkeypatch) as written:
        assert main(argv) == 0
    assert (b"syncing" in written) is not json_output and (b"\x1b" in written) is not json_output


def test_everywhere_and_host_token_list_the_mirror_with_the_local_sessions(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sync(capsys)
    rng = random.Random(5)
    header, entries = generate_varied_session(rng, str(Path.cwd()), start_ms=1_760_000_000_000)
    local = write_session(
        session_path(Path(os.environ["PI_CODING_AGENT_DIR"]) / "sessions", header),
        header,
        entries,
    )
    stores = {d["path"]: d["store"] for d in _listing(capsys, "--everywhere")}
    assert stores[str(local)] == "local"
    assert sorted(v for v in stores.values() if v != "local") == ["box"] * 3
    assert {d["store"] for d in _listing(capsys, "--all", "host:box")} == {"box"}
    assert [d["path"] for d in _listing(capsys)] == [str(local)]  # this folder's, by default


def test_a_mirrored_session_has_the_original_context(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sync(capsys)
    for path in _sessions(remote_agent):
        capsys.readouterr()
        assert main(["context", str(path), "--json"]) == 0
        original = capsys.readouterr().out
        assert main(["context", str(_mirrored(remote_agent, path)), "--json"]) == 0
        assert capsys.readouterr().out == original


def test_an_append_moves_only_its_bytes_a_rewrite_and_a_deletion_follow(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grown, rewritten, deleted = _sessions(remote_agent)
    with open(grown, "ab") as fh:
        fh.write(b'{"type":"custom"}\n' * 40_000)  # a large file: 720 kB more
    _sync(capsys)
    appended = b'{"type":"custom","customType":"x","data":"' + b"y" * 2000 + b'"}\n'
    with open(grown, "ab") as fh:
        fh.write(appended)
    text = rewritten.read_bytes()
    rewritten.write_bytes(text.replace(b'"', b"'"))  # the same size, every line changed
    os.utime(rewritten, (OLD + 99, OLD + 99))
    deleted.unlink()

    status, report = _sync(capsys)

    assert status == 0
    assert report["remotes"][0]["files"] == 2  # type: ignore[index]
    moved = report["bytes"]
    assert isinstance(moved, int)
    # the rewritten file whole, the grown one's new bytes (and rsync's block checksums)
    assert len(text) + len(appended) < moved < len(text) + len(appended) + 40_000
    assert moved < grown.stat().st_size / 10
    assert _mirrored(remote_agent, grown).read_bytes() == grown.read_bytes()
    assert _mirrored(remote_agent, rewritten).read_bytes() == rewritten.read_bytes()
    assert not _mirrored(remote_agent, deleted).exists()


def test_a_remote_that_is_down_is_one_line_and_its_mirror_stays_listed(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sync(capsys)
    remotes = load_remotes()
    save_remotes({"box": Remote("box", "root@127.0.0.2", str(remote_agent))})  # nothing there
    capsys.readouterr()
    assert main(["sync"]) == 1
    said = capsys.readouterr()
    assert said.out == ""
    [line] = said.err.splitlines()
    assert line.startswith("pitui: box: ") and "Connection refused" in line
    assert "mirror kept: synced " in line
    assert main(["list", "--remote", "box", "--json"]) == 0
    listed = capsys.readouterr()
    assert len(json.loads(listed.out)) == 3
    assert "Connection refused" in listed.err and "synced " in listed.err
    assert remotes  # the remote itself was kept


def test_a_changed_host_key_refuses_the_sync_and_keeps_the_mirror(
    remote_agent: Path,
    capsys: pytest.CaptureFixture[str],
    ssh_server: SshServer,  # noqa: F811
) -> None:
    assert _sync(capsys)[0] == 0
    before = {p: p.read_bytes() for p in mirror_dir("box").glob("*/*.jsonl")}
    ssh_server.new_host_key()
    _sessions(remote_agent)[0].unlink()
    status, report = _sync(capsys)
    assert status == 1
    error = report["remotes"][0]["error"]  # type: ignore[index]
    assert "Host key verification failed" in str(error)
    assert {p: p.read_bytes() for p in mirror_dir("box").glob("*/*.jsonl")} == before


def test_resume_runs_pi_on_the_remote_with_every_part_quoted(
    remote_agent: Path,
    capsys: pytest.CaptureFixture[str],
    ssh_server: SshServer,  # noqa: F811
) -> None:
    _sync(capsys)
    session = _sessions(remote_agent)[0]
    cwd = str(remote_agent.parent)  # a folder there whose name holds spaces and quotes
    argv = resume_mirrored(_mirrored(remote_agent, session), cwd)
    assert argv == [
        *shlex.split(os.environ["PITUI_SSH_COMMAND"]),
        *NEVER_PROMPT,
        "-t",
        "--",
        "root@127.0.0.1",
        f"cd {shlex.quote(cwd)} && pi --session {shlex.quote(str(session))}",
    ]
    assert resume_mirrored(session, cwd) is None  # not a mirrored file
    called = ssh_server.folder / "pi-called"
    called.unlink(missing_ok=True)
    assert subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True).returncode == 0
    assert called.read_text().splitlines() == [cwd, "--session", str(session)]


def _entry_id(path: Path) -> str:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return next(e["id"] for e in lines if e.get("type") == "message")


def test_a_label_on_a_mirrored_session_is_written_by_pitui_there_then_synced(
    remote_agent: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _sync(capfd)
    session = _sessions(remote_agent)[0]
    mirrored = _mirrored(remote_agent, session)
    entry = _entry_id(session)
    capfd.readouterr()
    assert main(["label", str(mirrored), entry, "from afar"]) == 0
    said = capfd.readouterr()
    assert f"labelled {entry}" in said.out and said.err == ""
    last = json.loads(session.read_text().splitlines()[-1])
    assert (last["type"], last["targetId"], last["label"]) == ("label", entry, "from afar")
    assert mirrored.read_bytes() == session.read_bytes()  # synced


def test_pitui_fork_of_a_mirrored_session_writes_it_here_where_a_sync_keeps_it(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written into the mirror (the source's folder), the fork was deleted by the next sync."""
    _sync(capsys)
    session = _sessions(remote_agent)[0]
    mirrored = _mirrored(remote_agent, session)
    listed = sorted(mirrored.parent.iterdir())
    leaf = json.loads(session.read_text().splitlines()[-1])["id"]
    assert main(["fork", str(mirrored), "--leaf", leaf, "--json"]) == 0
    fork = Path(json.loads(capsys.readouterr().out)["path"])
    cwd = json.loads(session.read_text().splitlines()[0])["cwd"]
    here = tmp_path / "local-agent" / "sessions"
    assert fork.parent == discovery.project_dir(here, cwd) and fork.is_file()
    assert sorted(mirrored.parent.iterdir()) == listed, "nothing new in the mirror"
    assert _sync(capsys)[0] == 0
    assert fork.is_file(), "a sync leaves it"


def test_a_name_or_label_starting_with_a_tilde_is_forwarded_as_typed(
    remote_agent: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Only the session's path is a path there: `~/notes` was stored as `/root/notes`."""
    _sync(capfd)
    session = _sessions(remote_agent)[0]
    mirrored = _mirrored(remote_agent, session)
    entry = _entry_id(session)
    assert main(["name", str(mirrored), "~/notes"]) == 0
    assert main(["label", str(mirrored), entry, "~/ideas $HOME"]) == 0
    *_, named, labelled = (json.loads(line) for line in session.read_text().splitlines())
    assert (named["type"], named["name"]) == ("session_info", "~/notes")
    assert (labelled["type"], labelled["label"]) == ("label", "~/ideas $HOME")
    assert mirrored.read_bytes() == session.read_bytes()


def test_without_pitui_there_one_line_says_so_and_nothing_is_written(
    remote_agent: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _sync(capfd)
    remote = load_remotes()["box"]
    save_remotes({"box": Remote("box", remote.host, remote.agent_dir, "pitui-not-here")})
    session = _sessions(remote_agent)[0]
    mirrored = _mirrored(remote_agent, session)
    before = session.read_bytes()
    capfd.readouterr()
    assert main(["name", str(mirrored), "renamed"]) == 1
    said = capfd.readouterr()
    assert said.out == ""
    [line] = said.err.splitlines()
    assert line.startswith("pitui: box: pitui-not-here is not installed there")
    assert session.read_bytes() == before and mirrored.read_bytes() == before


async def test_the_picker_lists_a_remote_marks_its_rows_and_syncs_on_f5(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitui.commands.app import _mirrors
    from pitui.ui.app import make_app

    assert _sync(capsys)[0] == 0
    app = make_app(
        sessions_root=tmp_path / "local-agent" / "sessions",
        mirrors=_mirrors(),
        all_scope=True,
        watch=False,
        cache_dir=tmp_path / "cache",
    )

    status_as_sync_ends: list[str] = []

    def as_it_ends(message: Message) -> None:  # before the picker handles the sync's end
        if isinstance(message, RemotesSynced) and not status_as_sync_ends:  # not its bubbling
            status_as_sync_ends.append(plain(app.screen.query_one("#picker-status"), 200))

    async with app.run_test(size=(120, 30), message_hook=as_it_ends) as pilot:
        picker = app.screen
        await wait_for(pilot, lambda: picker.scanned, timeout=10)
        await pilot.press(*"host:box")
        await wait_for(
            pilot, lambda: len(picker.rows) == 3 and not picker.search_pending, timeout=10
        )
        table = picker.query_one("#sessions")
        assert all("(box) " in table.render_line(y).text for y in (1, 2, 3))  # where they live
        header, entries = generate_varied_session(random.Random(9), "/srv/new", start_ms=1)
        write_session(session_path(remote_agent / "sessions", header), header, entries)
        await pilot.press("f5")  # a sync now, then the list again
        await wait_for(pilot, lambda: len(picker.rows) == 4, timeout=10)
        assert "syncing box 100%" in status_as_sync_ends[0]  # rsync's progress was shown
        assert "syncing" not in plain(picker.query_one("#picker-status"), 200)  # and cleared


def test_grep_searches_a_remote_mirror_with_remote_everywhere_or_host(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _sync(capsys)[0] == 0
    first = _listing(capsys, "--remote", "box")[0]
    word = max(str(first["firstMessage"]).split(), key=len)  # a word said in that session
    for args in (["--remote", "box"], ["--everywhere"], ["--all", f"host:box {word}"]):
        query = [] if any(a.startswith("host:") for a in args) else [word]
        capsys.readouterr()
        assert main(["grep", *query, *args, "--json"]) == 0
        hits = json.loads(capsys.readouterr().out)
        assert hits and all(str(mirror_dir("box")) in hit["path"] for hit in hits), args
        assert first["id"] in {hit["sessionId"] for hit in hits}
    capsys.readouterr()
    assert main(["grep", word, "--all", "--no-remotes", "--json"]) == 1  # none here
    assert json.loads(capsys.readouterr().out) == []
    assert main(["grep", f"in:local {word}", "--all", "--json"]) == 1
    assert main(["grep", word, "--all", "--json"]) == 0  # all sessions: the mirror's too


def _local_session() -> Path:
    header, entries = generate_varied_session(random.Random(5), str(Path.cwd()), start_ms=1)
    root = Path(os.environ["PI_CODING_AGENT_DIR"]) / "sessions"
    return write_session(session_path(root, header), header, entries)


def test_list_all_holds_the_mirrors_marked_unless_no_remotes_or_in_local(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _sync(capsys)[0] == 0
    _local_session()
    stores = sorted(d["store"] for d in _listing(capsys, "--all"))
    assert stores == ["box", "box", "box", "local"]
    assert [d["store"] for d in _listing(capsys, "--all", "--no-remotes")] == ["local"]
    assert [d["store"] for d in _listing(capsys, "--all", "in:local")] == ["local"]
    assert main(["list", "--all"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert sum("(box) " in row for row in rows) == 3 and len(rows) == 4


def test_list_all_lists_a_remote_added_after_its_kept_answer(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _local_session()
    assert main(["remote", "remove", "box"]) == 0
    assert [d["store"] for d in _listing(capsys, "--all")] == ["local"]  # kept
    assert main(["remote", "add", "box", "root@127.0.0.1", "--agent-dir", str(remote_agent)]) == 0
    assert _sync(capsys)[0] == 0
    assert sorted(d["store"] for d in _listing(capsys, "--all")) == ["box"] * 3 + ["local"]


async def test_mcp_scope_all_holds_the_mirrors_as_list_all_does(
    remote_agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp import Client

    from pitui.commands.mcp import build_server

    assert _sync(capsys)[0] == 0
    _local_session()
    listed = {d["id"]: d["store"] for d in _listing(capsys, "--all")}
    async with Client(build_server()) as client:

        async def page(tool: str, **arguments: Any) -> Any:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result.content
            return result.structured_content

        found = await page("search_sessions", scope="all", limit=100)
        assert {s["id"] for s in found["sessions"]} == set(listed)
        local = await page("search_sessions", query="in:local", scope="all")
        assert [s["id"] for s in local["sessions"]] == [
            i for i, s in listed.items() if s == "local"
        ]
        mirrored = next(i for i, store in listed.items() if store == "box")
        read = await page("read_session", session=mirrored, limit=1)  # by its id
        assert read["entries"]


def _session_there(agent: Path, cwd: str, seed: int) -> Path:
    """A new session on the remote started in `cwd` (a folder there, or not)."""
    header, entries = generate_varied_session(random.Random(seed), cwd, start_ms=seed)
    return write_session(session_path(agent / "sessions", header), header, entries)


async def test_the_app_names_and_labels_a_mirrored_session_there_and_forks_it_here(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mirror is never written here: a name or a label is written by pitui on the
    remote, then synced; a fork is a new session of this machine."""
    from pitui.ui.app import make_app
    from pitui.ui.modals.confirm import ConfirmModal
    from pitui.ui.modals.text_input import TextInputModal
    from pitui.ui.screens.session import SessionScreen
    from pitui.ui.widgets.entry_tree import EntryTree

    assert _sync(capsys)[0] == 0
    session = _sessions(remote_agent)[0]
    mirrored = _mirrored(remote_agent, session)
    listed = sorted(mirrored.parent.iterdir())
    app = make_app(session_file=mirrored, watch=False, cache_dir=tmp_path / "cache")

    def last_there() -> dict[str, object]:
        return json.loads(session.read_text().splitlines()[-1])

    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.live is not None, timeout=10)
        await pilot.press("ctrl+r", *"renamed", "enter")
        await wait_for(pilot, lambda: last_there().get("name") == "renamed", timeout=20)
        await wait_for(pilot, lambda: any("Session named" in m for m in toasts(app)), timeout=20)
        assert mirrored.read_bytes() == session.read_bytes()  # synced after the write there

        await pilot.press("home")
        target = screen.query_one(EntryTree).highlighted
        await pilot.press("L")
        assert isinstance(app.screen, TextInputModal)
        await pilot.press(*"-from afar", "enter")  # a label like an option stays a label
        await wait_for(pilot, lambda: last_there().get("label") == "-from afar", timeout=20)
        assert last_there()["targetId"] == target.id
        await wait_for(pilot, lambda: any("Label set" in m for m in toasts(app)), timeout=20)
        assert mirrored.read_bytes() == session.read_bytes()

        await pilot.press("alt+c")  # a context edit: said before any menu opens
        await wait_for(pilot, lambda: any("lives on box" in m for m in toasts(app)), timeout=10)
        assert app.screen is screen

        await pilot.press("home", "alt+n")  # fork: asked, then written on this machine
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), timeout=10)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any((tmp_path / "local-agent").rglob("*.jsonl")), timeout=10)
    assert sorted(mirrored.parent.iterdir()) == listed  # nothing new in the mirror


async def test_a_write_there_refused_as_pi_may_be_writing_is_asked_then_forced(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitui.ui.app import make_app
    from pitui.ui.modals.confirm import ConfirmModal

    session = _sessions(remote_agent)[0]
    assert _sync(capsys)[0] == 0
    mirrored = _mirrored(remote_agent, session)
    app = make_app(session_file=mirrored, watch=False, cache_dir=tmp_path / "cache")
    named = lambda: json.loads(session.read_text().splitlines()[-1]).get("name")  # noqa: E731
    with session.open("a"):  # held open for writing there (as pi does): pitui there refuses
        async with app.run_test(size=(120, 30), notifications=True) as pilot:
            screen = app.screen
            await wait_for(pilot, lambda: screen.live is not None, timeout=10)
            await pilot.press("ctrl+r", *"anyway", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), timeout=20)
            assert "pi may be writing" in app.screen._title
            assert "on box" in str(app.screen._message)  # what pitui there said
            assert named() != "anyway"
            await pilot.press("enter")  # write anyway
            await wait_for(pilot, lambda: named() == "anyway", timeout=20)


async def test_resuming_a_mirrored_session_asks_when_its_folder_is_missing_there(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pitui.ui.app import make_app
    from pitui.ui.modals.choice import ChoiceModal

    present = str(remote_agent.parent)  # a folder there (spaces and quotes in its name)
    found = _session_there(remote_agent, present, 11)
    missing = _session_there(remote_agent, "/srv/gone there", 12)
    assert _sync(capsys)[0] == 0
    for session, cwd in ((found, present), (missing, "~")):
        mirrored = _mirrored(remote_agent, session)
        app = make_app(session_file=mirrored, watch=False, cache_dir=tmp_path / "cache")
        async with app.run_test(size=(120, 30)) as pilot:
            screen = app.screen
            await wait_for(pilot, lambda: screen.live is not None, timeout=10)  # noqa: B023
            await pilot.press("ctrl+e")
            if session is missing:  # asked first, as for a session of this machine
                await wait_for(pilot, lambda: isinstance(app.screen, ChoiceModal), timeout=20)  # noqa: B023
                assert "missing on box" in app.screen._title
                assert "/srv/gone there" in str(app.screen._message)
                await pilot.press("enter")  # run in the home folder there
            await wait_for(pilot, lambda: app.return_value is not None, timeout=20)  # noqa: B023
        command = app.return_value.argv[-1]
        there = shlex.quote(str(session))
        assert command == f"cd {shlex.quote(cwd) if cwd != '~' else '~'} && pi --session {there}"


def _all_sessions_app(tmp_path: Path, *, remotes_in_all: bool = True) -> Any:
    """The app on all sessions: this machine's one session and the remote's mirror."""
    from pitui.commands.app import _mirrors
    from pitui.ui.app import make_app

    local_root = tmp_path / "local-agent" / "sessions"
    header, entries = generate_varied_session(random.Random(5), str(tmp_path), start_ms=1)
    write_session(session_path(local_root, header), header, entries)
    return make_app(
        sessions_root=local_root,
        mirrors=_mirrors(),
        all_scope=True,
        remotes_in_all=remotes_in_all,
        cwd=str(tmp_path),
        watch=False,
        cache_dir=tmp_path / "cache",
    )


def _stores(picker: Any) -> list[str]:
    return sorted(row.summary.store for row in picker.rows)


async def test_all_sessions_list_the_remotes_rows_marked_and_in_local_leaves_them_out(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _sync(capsys)[0] == 0
    app = _all_sessions_app(tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        picker = app.screen
        await wait_for(pilot, lambda: len(picker.rows) == 4, timeout=10)
        assert _stores(picker) == ["box", "box", "box", "local"]
        assert "all sessions + remotes" in plain(picker.query_one("#picker-status"), 200)
        table = picker.query_one("#sessions")
        marked = lambda: sum("(box) " in table.render_line(y).text for y in range(1, 5))  # noqa: E731
        await wait_for(pilot, lambda: marked() == 3)  # the rows drawn (later, on a busy machine)
        await pilot.press(*"in:local")
        await wait_for(pilot, lambda: _stores(picker) == ["local"], timeout=10)
        await pilot.press(*("backspace" for _ in "in:local"), "tab")  # this folder's
        await wait_for(pilot, lambda: not picker.all_scope and not picker.search_pending)
        await wait_for(pilot, lambda: _stores(picker) == ["local"], timeout=10)  # rows drawn


async def test_no_remotes_leaves_the_mirrors_out_of_all_sessions(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _sync(capsys)[0] == 0
    app = _all_sessions_app(tmp_path, remotes_in_all=False)
    async with app.run_test(size=(120, 30)) as pilot:
        picker = app.screen
        await wait_for(pilot, lambda: picker.scanned and not picker.search_pending, timeout=10)
        await wait_for(pilot, lambda: _stores(picker) == ["local"], timeout=10)  # rows drawn
        assert "+ remotes" not in plain(picker.query_one("#picker-status"), 200)
        await pilot.press(*"host:box")  # a remote's own rows, still
        await wait_for(pilot, lambda: _stores(picker) == ["box"] * 3, timeout=10)


def test_the_apps_help_says_how_to_leave_the_remotes_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--no-remotes" in capsys.readouterr().out


def test_remote_add_connects_first_and_says_what_is_missing_there(
    remote_agent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["remote", "add", "down", "root@127.0.0.2"]) == 1  # nothing listens there
    said = capsys.readouterr()
    assert said.out == "" and "Connection refused" in said.err and len(said.err.splitlines()) == 1
    assert "down" not in load_remotes()
    assert main(["remote", "add", "down", "root@127.0.0.2", "--no-test"]) == 0
    assert "down" in load_remotes()
    capsys.readouterr()
    missing = tmp_path / "no agent here"
    assert main(["remote", "add", "bare", "root@127.0.0.1", "--agent-dir", str(missing)]) == 0
    said = capsys.readouterr()
    assert said.err.startswith("pitui: bare: no session folder at ") and "added bare" in said.out
    args = ["--agent-dir", str(remote_agent), "--pitui-command", "pitui-not-here"]
    assert main(["remote", "add", "nopitui", "root@127.0.0.1", *args]) == 0
    assert "pitui-not-here is not found there" in capsys.readouterr().err


def test_an_unknown_host_key_says_how_to_accept_it(
    remote_agent: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    ssh_server: SshServer,  # noqa: F811
) -> None:
    command = os.environ["PITUI_SSH_COMMAND"].replace("accept-new", "yes")
    command = command.replace(str(tmp_path / "known_hosts"), str(tmp_path / "empty_known_hosts"))
    monkeypatch.setenv("PITUI_SSH_COMMAND", command)
    capsys.readouterr()
    host = f"ssh://root@127.0.0.1:{ssh_server.port}"
    assert main(["remote", "add", "new", host]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("pitui: new: Host key verification failed: ssh does not know ")
    assert "root@127.0.0.1's host key yet" in line and line.endswith("--no-test skips this)")
    assert f"connect once with `ssh -p {ssh_server.port} root@127.0.0.1` and accept it" in line
    assert main(["remote", "add", "new", host, "--no-test"]) == 0
    status, report = _sync(capsys, "new")  # a first sync says the same
    assert status == 1 and "ssh does not know" in str(report["remotes"][0]["error"])  # type: ignore[index]


def test_remote_set_changes_the_pitui_command_and_keeps_the_mirror(
    remote_agent: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _sync(capfd)
    mirrored = sorted(mirror_dir("box").rglob("*.jsonl"))
    assert main(["remote", "set", "box", "--pitui-command", "pitui-not-here"]) == 0
    assert "pitui-not-here is not found there" in capfd.readouterr().err
    assert load_remotes()["box"].pitui_command == "pitui-not-here"
    assert main(["remote", "set", "box", "--pitui-command", "pitui"]) == 0
    assert load_remotes()["box"] == Remote("box", "root@127.0.0.1", str(remote_agent), "pitui")
    assert sorted(mirror_dir("box").rglob("*.jsonl")) == mirrored  # the mirror stays
    assert main(["remote", "set", "box", "--host", "root@127.0.0.2"]) == 1  # unreachable
    assert load_remotes()["box"].host == "root@127.0.0.1"  # not changed
    assert main(["remote", "set", "nobody", "--pitui-command", "x"]) == 2


def _projects_on_both_machines(
    remote_agent: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, dict[str, EditingSession]]:
    """`proj/app.py` at the same path here and on the remote, each machine's session writing
    it (the remote's mirrored); pitui's data folder apart."""
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    project = tmp_path / "proj"
    project.mkdir()
    there = EditingSession(project, seed=8)
    there.write("app.py", "written there\n")
    there.save(remote_agent / "sessions")
    here = EditingSession(project, seed=9)
    here.write("app.py", "written here\n")
    root = Path(os.environ["PI_CODING_AGENT_DIR"]) / "sessions"
    os.utime(here.save(root), (OLD, OLD))  # nobody is writing it: `pitui move` takes it
    (project / "app.py").write_text("written here\n")
    return project, {"there": there, "here": here}


def test_a_move_here_leaves_the_paths_a_mirrored_session_wrote(
    remote_agent: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The remote's session wrote the other machine's `proj/app.py`: a folder moved here does
    not take it along (`file:` listed it under the new folder)."""
    project, sessions = _projects_on_both_machines(remote_agent, tmp_path, monkeypatch)
    assert _sync(capsys)[0] == 0
    moved = tmp_path / "moved"
    project.rename(moved)
    assert main(["move", str(project), str(moved), "--yes"]) == 0
    monkeypatch.chdir(moved)
    capsys.readouterr()
    assert main(["log", "app.py", "--everywhere", "--json"]) == 0
    assert [c["sessionId"] for c in json.loads(capsys.readouterr().out)] == [sessions["here"].id]
    found = _listing(capsys, "--everywhere", "file:app.py")
    assert [d["id"] for d in found] == [sessions["here"].id]
    assert main(["log", str(project / "app.py"), "--remote", "box", "--json"]) == 0
    assert [c["sessionId"] for c in json.loads(capsys.readouterr().out)] == [sessions["there"].id]
    found = _listing(capsys, "--remote", "box", f"file:{project / 'app.py'}")
    assert [d["id"] for d in found] == [sessions["there"].id]


def test_log_and_blame_mark_a_remotes_calls_as_list_marks_its_sessions(
    remote_agent: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--remote NAME` and `--everywhere` printed the other machine's edit of its own
    `proj/app.py` exactly as one made here: no `(box)`, no `store` in the JSON."""
    project = tmp_path / "proj"
    project.mkdir()
    here = EditingSession(project, seed=9)
    wrote = here.write("app.py", "a\n")
    here.save(Path(os.environ["PI_CODING_AGENT_DIR"]) / "sessions")
    there = EditingSession(project, seed=8, ms=BASE_MS + 3_600_000)
    edited = there.edit("app.py", "a\n", "a\nb\n")
    remote_path = there.save(remote_agent / "sessions")
    (project / "app.py").write_text("a\nb\n")
    assert _sync(capsys)[0] == 0
    monkeypatch.chdir(project)
    assert main(["log", "app.py", "--everywhere"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.endswith(f"{edited}  app.py  (box) work on the files (session 8)")
    assert second.endswith(f"{wrote}  app.py  work on the files (session 9)")
    assert main(["log", "app.py", "--remote", "box", "--json"]) == 0
    (change,) = json.loads(capsys.readouterr().out)
    assert (change["id"], change["store"], change["remotePath"]) == (
        edited,
        "box",
        str(remote_path),
    )
    assert change["path"] == str(_mirrored(remote_agent, remote_path))
    assert main(["log", "app.py", "--everywhere", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(c["id"], c["store"], "remotePath" in c) for c in found] == [
        (edited, "box", True),
        (wrote, "local", False),
    ]
    assert main(["blame", "app.py", "--everywhere"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.split()[1] == wrote and first.endswith("       | a")
    assert second.split()[1] == edited and second.endswith(" (box) | b")
    assert first.index("|") == second.index("|")
    assert main(["blame", "app.py", "--everywhere", "--json"]) == 0
    lines = json.loads(capsys.readouterr().out)
    assert [(line["id"], line["store"], line.get("remotePath")) for line in lines] == [
        (wrote, "local", None),
        (edited, "box", str(remote_path)),
    ]
