"""Only regular files are read by a listing; what is skipped or unreadable is said (issue 18).

Each CLI run is a subprocess with a timeout, so a hang fails the test instead of the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from reading_runner import run_commands

from pitui.core.catalog.catalog import Catalog

REPO = Path(__file__).resolve().parents[2]


def _session(path: Path, sid: str) -> None:
    header = {"type": "session", "version": 3, "id": sid, "timestamp": "2026-01-01T00:00:00Z",
              "cwd": "/w"}  # fmt: skip
    msg = {"type": "message", "id": "m1", "parentId": None, "timestamp": "2026-01-01T00:00:01Z",
           "message": {"role": "user", "content": f"hello {sid}"}}  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(msg) + b"\n")


def _pitui(agent: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(agent), "PYTHONPATH": str(REPO),
           "PITUI_CACHE_DIR": str(agent.parent / "cache")}  # fmt: skip
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "pitui", *args], capture_output=True, text=True, env=env, timeout=30
    )


@pytest.fixture
def store(tmp_path: Path) -> Path:
    agent = tmp_path / "agent"
    folder = agent / "sessions" / "--w--"
    _session(folder / "good.jsonl", "good")
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    (folder / "random.jsonl").symlink_to("/dev/urandom")
    (folder / "dir.jsonl").mkdir()
    return agent


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_list_skips_what_is_not_a_regular_file(store: Path, cache: list[str]) -> None:
    for _ in range(2):  # cold, then warm
        done = _pitui(store, "list", "--all", "--json", *cache)
        assert done.returncode == 0, done.stderr
        assert [d["id"] for d in json.loads(done.stdout)] == ["good"]
        for name, kind in [("fifo", "FIFO"), ("zero", "character device"),
                           ("random", "character device"), ("dir", "directory")]:  # fmt: skip
            assert f"{name}.jsonl: not a regular file ({kind})" in done.stderr


def test_scan_report_names_skipped_and_unreadable(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    folder = store / "sessions" / "--w--"
    _session(folder / "locked.jsonl", "locked")
    real_open = os.open

    def deny(path, flags, *args):  # type: ignore[no-untyped-def]  # root ignores chmod 000
        if str(path).endswith("locked.jsonl"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", deny)
    with Catalog(store / "sessions", no_cache=True) as catalog:
        report = catalog.scan(tools="later")
        assert [s.id for s in catalog.sessions()] == ["good"]
    assert any("locked.jsonl: Permission denied" in u for u in report.unreadable)
    assert len(report.skipped) == 4


def test_chmod_000_session_is_reported(store: Path, tmp_path: Path) -> None:
    locked = store / "sessions" / "--w--" / "locked.jsonl"
    _session(locked, "locked")
    assert _pitui(store, "list", "--all").returncode == 0  # indexed while readable
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: chmod 000 does not stop reading (see the test above)")
        done = _pitui(store, "list", "--all")
        assert "locked.jsonl: Permission denied" in done.stderr
        assert "hello locked" not in done.stdout
    finally:
        locked.chmod(0o644)


def test_settings_json_fifo_does_not_hang(store: Path) -> None:
    os.mkfifo(store / "settings.json")
    done = _pitui(store, "list", "--all", "--json")
    assert done.returncode == 0 and [d["id"] for d in json.loads(done.stdout)] == ["good"]


def test_a_null_byte_in_the_settings_session_dir_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "agent"
    (agent / "sessions").mkdir(parents=True)
    settings = agent / "settings.json"
    settings.write_text('{"sessionDir": "/tmp/a\\u0000b"}')
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    runs = [["list"], ["stats"], ["secrets"], ["du", "--all"], ["prune", "--empty"], []]
    for args, (code, _, err) in zip(runs, run_commands(runs), strict=True):
        assert (code, err) == (1, f"pitui: {settings}: sessionDir contains a null byte\n"), args
