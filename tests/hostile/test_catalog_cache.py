"""An unusable cache folder never stops a listing: pitui lists without the index (as
`--no-cache`) and says why in one line (issue 18)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index import index as index_module

REPO = Path(__file__).resolve().parents[2]


def _store(agent: Path) -> None:
    folder = agent / "sessions" / "--w--"
    folder.mkdir(parents=True)
    for n in range(3):
        header = {"type": "session", "version": 3, "id": f"s{n}",
                  "timestamp": f"2026-01-0{n + 1}T00:00:00Z", "cwd": "/w"}  # fmt: skip
        (folder / f"s{n}.jsonl").write_bytes(orjson.dumps(header) + b"\n")


def _regular_file(tmp: Path) -> Path:
    (tmp / "cachefile").write_text("x")
    return tmp / "cachefile"


def _dev_null_link(tmp: Path) -> Path:
    (tmp / "cachelink").symlink_to("/dev/null")
    return tmp / "cachelink"


def _under_a_file(tmp: Path) -> Path:
    (tmp / "plain").write_text("x")
    return tmp / "plain" / "pitui"


def _db_is_a_folder(tmp: Path) -> Path:
    (tmp / "cache" / index_module.DB_NAME).mkdir(parents=True)
    return tmp / "cache"


def _db_is_dev_null(tmp: Path) -> Path:
    (tmp / "cache").mkdir()
    (tmp / "cache" / index_module.DB_NAME).symlink_to("/dev/null")
    return tmp / "cache"


@pytest.mark.parametrize(
    "make", [_regular_file, _dev_null_link, _under_a_file, _db_is_a_folder, _db_is_dev_null]
)
def test_list_without_the_index(tmp_path: Path, make: Callable[[Path], Path]) -> None:
    _store(tmp_path / "agent")
    env = {**os.environ, "PI_CODING_AGENT_DIR": str(tmp_path / "agent"),
           "PITUI_CACHE_DIR": str(make(tmp_path)), "PYTHONPATH": str(REPO)}  # fmt: skip
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "pitui", "list", "--all", "--json"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [d["id"] for d in json.loads(done.stdout)] == ["s2", "s1", "s0"]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "cannot use the session index" in lines[0], done.stderr
    assert "listing without it" in lines[0] and "in use by another" not in lines[0]
    assert not os.path.exists("/dev/null") or os.stat("/dev/null").st_size == 0


def test_disk_full_while_indexing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(tmp_path / "agent")
    real = index_module.Index._write

    def full(self: index_module.Index, update: index_module.Update) -> None:
        if self.path is not None:
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
            raise error
        real(self, update)

    monkeypatch.setattr(index_module.Index, "_write", full)
    with Catalog(tmp_path / "agent" / "sessions", cache_dir=tmp_path / "cache") as catalog:
        report = catalog.scan()
        assert [s.id for s in catalog.sessions()] == ["s2", "s1", "s0"]
    assert report.notice and "database or disk is full" in report.notice
    assert "in use by another" not in report.notice
