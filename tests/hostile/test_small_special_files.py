"""pitui's small files (the trash's `.trashinfo`, its config's `remotes.json`, its caches) are
opened only when they are regular files: a FIFO in their place is never waited on (each of
these commands hung), a link to /dev/zero never read (`restore --list` ate memory without
end). Each command runs in a child process with a timeout (and a memory limit), so a
regression fails the test instead of hanging it or the machine."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pty_terminal import Pty, ended, pitui_env
from waiting import wait_until

from pitui.core.changes.restore import INFO_LIMIT, list_trashed
from pitui.demo.generate import generate_corpus

TIMEOUT = 60  # seconds: far more than any of these commands takes; a hang hits it
MEMORY = 4 << 30  # bytes of address space: a read without end fails, not the machine


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _pitui(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, str, str]:
    result = subprocess.run(
        [sys.executable, "-m", "pitui", *args],
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_limited,
    )
    return result.returncode, result.stdout, result.stderr


def _store(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The environment of a pitui whose folders (and HOME, and trash) are all in
    `tmp_path`, on a store of a few sessions; and the folder to run it in."""
    agent = tmp_path / "agent"
    generate_corpus(agent / "sessions", seed=11, count=4)
    env = pitui_env(agent, tmp_path)
    env.update(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "home" / "share"))
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    work = tmp_path / "work"
    work.mkdir()
    return env, work


def _a_session(env: dict[str, str]) -> Path:
    return next(
        p
        for p in sorted(Path(env["PI_CODING_AGENT_DIR"], "sessions").rglob("*.jsonl"))
        if p.read_bytes().startswith(b'{"type":"session"')
    )


def _trash(env: dict[str, str], kind: str, tmp_path: Path) -> tuple[Path, Path]:
    """A trash holding a session whose `.trashinfo` is `kind` (fifo, zero: a link to
    /dev/zero, big: a regular file too large to be one) and a good trashed session,
    `kept.jsonl`; returns (the odd entry's info file, where `kept` was)."""
    trash = Path(env["XDG_DATA_HOME"]) / "Trash"
    (trash / "info").mkdir(parents=True)
    (trash / "files").mkdir()
    session = _a_session(env)
    for name in ("odd", "kept"):
        shutil.copy(session, trash / "files" / f"{name}.jsonl")
    odd = trash / "info" / "odd.jsonl.trashinfo"
    if kind == "fifo":
        os.mkfifo(odd)
    elif kind == "zero":
        odd.symlink_to("/dev/zero")
    else:
        odd.write_text(f"[Trash Info]\nPath=/x/odd.jsonl\nX-Pad={'a' * INFO_LIMIT}\n")
    kept = tmp_path / "was" / "kept.jsonl"
    (trash / "info" / "kept.jsonl.trashinfo").write_text(
        f"[Trash Info]\nPath={kept}\nDeletionDate=2026-01-02T03:04:05\n"
    )
    return odd, kept


SKIPPED = {
    "fifo": "not a regular file (a FIFO)",
    "zero": "not a regular file (a character device)",
    "big": f"larger than {INFO_LIMIT:,} bytes, not a trash entry",
}


@pytest.mark.parametrize("kind", ["fifo", "zero", "big"])
def test_restore_skips_a_trash_entry_that_is_not_a_small_regular_file(
    tmp_path: Path, kind: str
) -> None:
    env, work = _store(tmp_path)
    odd, kept = _trash(env, kind, tmp_path)
    said = f"pitui: skipped {odd}: {SKIPPED[kind]}\n"
    code, out, err = _pitui(env, work, "restore", "--list")
    assert (code, err) == (0, said)
    assert str(kept) in out and "odd" not in out
    code, out, err = _pitui(env, work, "restore", "kept.jsonl")
    assert (code, out, err) == (0, f"restored {kept}\n", said)
    assert kept.is_file()
    assert os.path.lexists(odd)  # another program's entry: left as it is


def test_list_trashed_names_what_it_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the app's trash view lists (its notes shown as warnings)."""
    env, _ = _store(tmp_path)
    odd, kept = _trash(env, "big", tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    skipped: list[str] = []
    assert [t.original for t in list_trashed(skipped=skipped)] == [kept]
    assert skipped == [f"skipped {odd}: {SKIPPED['big']}"]


@pytest.mark.parametrize("link", [False, True])
def test_a_remotes_file_that_is_not_regular_is_one_line(tmp_path: Path, link: bool) -> None:
    env, work = _store(tmp_path)
    remotes = Path(env["PITUI_CONFIG_DIR"]) / "remotes.json"
    remotes.parent.mkdir(parents=True)
    if link:
        remotes.symlink_to("/dev/zero")
    else:
        os.mkfifo(remotes)
    kind = "a character device" if link else "a FIFO"
    said = f"pitui: cannot read {remotes}: not a regular file ({kind})\n"
    for args in (["remote", "list"], ["list", "--all"], ["sync"]):
        code, out, err = _pitui(env, work, *args)
        assert (code, out, err) == (1, "", said), args


@pytest.mark.slow
def test_the_app_with_a_fifo_remotes_file_says_so_and_ends(tmp_path: Path) -> None:
    """The picker read it before drawing: a blank screen that Ctrl+Q did not end."""
    env, _ = _store(tmp_path)
    remotes = Path(env["PITUI_CONFIG_DIR"]) / "remotes.json"
    remotes.parent.mkdir(parents=True)
    os.mkfifo(remotes)
    expected = "".join(f"cannot read {remotes}: not a regular file (a FIFO)".split())
    with ended(Pty(env, args=("--all",))) as terminal:
        assert terminal.process.wait(timeout=TIMEOUT) == 1

        def said() -> str:  # the terminal's text, unwrapped
            return "".join(terminal.text().split())

        wait_until(lambda: expected in said(), "the message on the terminal", TIMEOUT, said)


@pytest.mark.parametrize(
    ("name", "args", "what"),
    [
        ("check-cache.json", ["check", "--all"], "check cache"),
        ("usage-cache.json", ["stats", "--all"], "usage cache"),
        ("secrets-cache.json", ["secrets", "--all"], "secrets cache"),
    ],
)
def test_a_cache_that_is_not_regular_is_rebuilt(
    tmp_path: Path, name: str, args: list[str], what: str
) -> None:
    env, work = _store(tmp_path)
    first = _pitui(env, work, *args)
    cache = Path(env["PITUI_CACHE_DIR"]) / name
    assert cache.is_file()
    cache.unlink()
    os.mkfifo(cache)
    code, out, err = _pitui(env, work, *args)
    assert (code, out) == first[:2]
    assert err == f"pitui: {what} {cache} is not a regular file: rebuilt\n" + first[2]
    assert cache.is_file()  # written in its place, as a damaged cache is
    assert _pitui(env, work, *args) == first
