"""The usage cache: per session file, its header facts and usage buckets, in SQLite.

Its own database (`usage.sqlite3`) next to the catalog's index, so neither depends on the
other's schema. A file's rows are kept while its path, size, mtime and inode are unchanged,
and read again otherwise; days are local calendar days, so a change of time zone empties it.
It is only a cache: a damaged or outdated one is rebuilt from the session files.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = "pitui-usage-1"
DB_NAME = "usage.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    inode INTEGER NOT NULL, is_session INTEGER NOT NULL, sid TEXT, cwd TEXT, parent TEXT,
    created_ms INTEGER);
CREATE TABLE IF NOT EXISTS rows(
    path TEXT NOT NULL, day TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
    copy_ms INTEGER, messages INTEGER NOT NULL, input REAL NOT NULL, output REAL NOT NULL,
    cache_read REAL NOT NULL, cache_write REAL NOT NULL, cost REAL NOT NULL);
CREATE INDEX IF NOT EXISTS rows_path ON rows(path);
"""


def cache_dir() -> Path:
    """The catalog's cache folder (`catalog.index.default_cache_dir`, which a test compares
    with this): repeated here because importing the index costs a warm `pitui stats` half its
    time budget."""
    env = os.environ.get("PITUI_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("pitui"))


@dataclass(frozen=True)
class SessionInfo:
    """A session file's header facts (what grouping and lineage need)."""

    path: str
    session_id: str
    cwd: str
    parent: str | None
    created_ms: int | None


# (path, day, provider, model, copy_ms, messages, input, output, cache_read, cache_write, cost)
Row = tuple[str, str, str, str, int | None, int, float, float, float, float, float]


class UsageCache:
    """Usage rows of session files, refreshed only for files that changed."""

    def __init__(self, folder: Path | None) -> None:
        self.notice: str | None = None
        self._db = self._open(folder)

    def _open(self, folder: Path | None) -> sqlite3.Connection:
        if folder is None:
            return self._memory()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(folder / DB_NAME), timeout=5.0, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            self._check(db)
            return db
        except sqlite3.DatabaseError as error:
            return self._rebuild(folder, error)
        except OSError as error:
            self.notice = f"usage cache unavailable ({error.strerror or error}); not kept"
            return self._memory()

    def _rebuild(self, folder: Path, error: sqlite3.Error) -> sqlite3.Connection:
        """A damaged cache file: start a fresh one (it holds nothing the sessions do not)."""
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(folder / (DB_NAME + suffix))
        try:
            db = sqlite3.connect(str(folder / DB_NAME), timeout=5.0, isolation_level=None)
            self._check(db)
            return db
        except sqlite3.Error:
            self.notice = f"usage cache unusable ({error}); not kept"
            return self._memory()

    def _memory(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", isolation_level=None)
        self._check(db)
        return db

    @staticmethod
    def _check(db: sqlite3.Connection) -> None:
        """Create the tables; empty them when the schema or the time zone changed."""
        db.executescript(SCHEMA)
        want = {"version": SCHEMA_VERSION, "tz": _zone()}
        have = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if all(have.get(k) == v for k, v in want.items()):
            return
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM files")
        db.execute("DELETE FROM rows")
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", want.items())
        db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    def refresh(self, paths: Iterable[str]) -> tuple[dict[str, SessionInfo], list[Row]]:
        """The sessions among `paths` and their rows, reading only files that changed."""
        known = {r[0]: r for r in self._db.execute("SELECT * FROM files")}
        infos: dict[str, SessionInfo] = {}
        stale: list[tuple[str, os.stat_result]] = []
        gone: list[str] = []
        for path in paths:
            try:
                st = os.stat(path)
            except OSError:
                gone.append(path)
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            row = known.get(path)
            if row is None or row[1:4] != (st.st_size, st.st_mtime_ns, st.st_ino):
                stale.append((path, st))
            elif row[4]:
                infos[path] = SessionInfo(path, row[5], row[6], row[7], row[8])
        if stale or gone:
            infos.update(self._update(stale, gone))
        wanted = set(infos)
        rows = [r for r in self._db.execute("SELECT * FROM rows") if r[0] in wanted]
        return infos, rows

    def _update(
        self, stale: list[tuple[str, os.stat_result]], gone: list[str]
    ) -> dict[str, SessionInfo]:
        from pitui.core.usage.extract import read_usage  # only when a file changed

        infos: dict[str, SessionInfo] = {}
        read: list[tuple[str, os.stat_result, object]] = []
        for path, st in stale:
            try:
                read.append((path, st, read_usage(path)))
            except OSError:
                gone.append(path)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for path in [*gone, *(p for p, _, _ in read)]:
                self._db.execute("DELETE FROM files WHERE path=?", (path,))
                self._db.execute("DELETE FROM rows WHERE path=?", (path,))
            for path, st, usage in read:
                info = self._store(path, st, usage)
                if info is not None:
                    infos[path] = info
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return infos

    def _store(self, path: str, st: os.stat_result, usage: object) -> SessionInfo | None:
        from pitui.core.usage.extract import FileUsage

        facts = (path, st.st_size, st.st_mtime_ns, st.st_ino)
        if not isinstance(usage, FileUsage):
            self._db.execute(
                "INSERT INTO files(path, size, mtime_ns, inode, is_session) VALUES (?, ?, ?, ?, 0)",
                facts,
            )
            return None
        info = SessionInfo(path, usage.session_id, usage.cwd, usage.parent, usage.created_ms)
        self._db.execute(
            "INSERT INTO files VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)",
            (*facts, info.session_id, info.cwd, info.parent, info.created_ms),
        )
        rows = [(path, *key, None, *values) for key, values in usage.buckets.items()]
        rows += [(path, c.day, c.provider, c.model, c.entry_ms, *c.values) for c in usage.copies]
        self._db.executemany("INSERT INTO rows VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        return info


def _zone() -> str:
    return f"{time.tzname}|{time.timezone}|{time.altzone}|{os.environ.get('TZ', '')}"
