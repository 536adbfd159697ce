"""The persistent catalog index: SQLite (WAL) with an FTS5 table, keyed by file path.

Nothing in it is trusted over the files: rows carry size, mtime_ns, inode and a hash of the
file's first bytes; a schema-version mismatch or a corrupt database is rebuilt from scratch.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from pitui.core.catalog.builder import SummaryBuilder
from pitui.core.catalog.summary import SessionSummary

SCHEMA_VERSION = "pitui-catalog-3"
DB_NAME = "catalog.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, head_len INTEGER NOT NULL,
    head_hash BLOB NOT NULL, offset INTEGER NOT NULL, is_session INTEGER NOT NULL,
    state BLOB, summary BLOB, text TEXT, base_text TEXT);
CREATE TABLE IF NOT EXISTS fts_rows(rowid INTEGER PRIMARY KEY, file_id INTEGER, kind INTEGER);
CREATE INDEX IF NOT EXISTS fts_rows_file ON fts_rows(file_id);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
    text, name, labels, cwd, tools, tokenize='unicode61 remove_diacritics 2');
"""
KIND_META, KIND_CHUNK = 0, 1


def default_cache_dir() -> Path:
    env = os.environ.get("PITUI_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("pitui"))


@dataclass
class FileRow:
    """What the index knows about one file's bytes."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    head_len: int
    head_hash: bytes
    offset: int
    is_session: bool


@dataclass
class Update:
    """One file's new index content (`reset`: replace all its FTS rows, else append)."""

    row: FileRow
    builder: SummaryBuilder
    summary: SessionSummary | None
    reset: bool


class Index:
    """The SQLite store; `path=None` keeps it in memory (`--no-cache`)."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.path = None if cache_dir is None else cache_dir / DB_NAME
        try:
            self.db = self._open()
        except sqlite3.DatabaseError:
            self.db = self._rebuild()

    def _connect(self) -> sqlite3.Connection:
        if self.path is None:
            return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=30000")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _open(self) -> sqlite3.Connection:
        db = self._connect()
        with _transaction(db):
            version = _version(db)
            if version != SCHEMA_VERSION:
                if version is not None or _has_tables(db):
                    _drop_all(db)
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
        return db

    def _rebuild(self) -> sqlite3.Connection:
        """Throw the database away (corrupt or unreadable) and start a fresh one."""
        if self.path is not None:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{self.path}{suffix}").unlink()
        return self._open()

    def reset(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
        self.db = self._rebuild()

    def close(self) -> None:
        self.db.close()

    # -- reading -----------------------------------------------------------------------------

    def rows(self) -> dict[str, FileRow]:
        cur = self.db.execute(
            "SELECT path, size, mtime_ns, inode, head_len, head_hash, offset, is_session FROM files"
        )
        return {r[0]: FileRow(*r[:7], bool(r[7])) for r in cur}

    def summaries(self, paths: Iterable[str] | None = None) -> dict[str, SessionSummary]:
        sql = "SELECT path, summary, text FROM files WHERE is_session=1"
        if paths is None:
            cur = self.db.execute(sql)
        else:
            wanted = list(paths)
            cur = self.db.execute(
                sql + " AND path IN (SELECT value FROM json_each(?))", (orjson.dumps(wanted),)
            )
        return {p: SessionSummary.from_record(orjson.loads(s), t or "") for p, s, t in cur}

    def builder(self, path: str) -> SummaryBuilder:
        state, text, base = self.db.execute(
            "SELECT state, text, base_text FROM files WHERE path=?", (path,)
        ).fetchone()
        return SummaryBuilder.from_state(orjson.loads(state), base if base is not None else text)

    def tool_matches(self, fts_query: str) -> set[str]:
        """Paths of sessions whose tool output or labels match an FTS5 query."""
        try:
            cur = self.db.execute(
                "SELECT DISTINCT f.path FROM fts JOIN fts_rows r ON r.rowid = fts.rowid "
                "JOIN files f ON f.id = r.file_id WHERE fts MATCH ?",
                (fts_query,),
            )
            return {row[0] for row in cur}
        except sqlite3.OperationalError:
            return set()

    # -- writing -----------------------------------------------------------------------------

    def write(self, updates: Iterable[Update], deleted: Iterable[str] = ()) -> None:
        with _transaction(self.db):
            for path in deleted:
                self._delete(path)
            for update in updates:
                self._write(update)

    def _delete(self, path: str) -> None:
        found = self.db.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        if found is None:
            return
        self._drop_fts(found[0], None)
        self.db.execute("DELETE FROM files WHERE id=?", (found[0],))

    def _drop_fts(self, file_id: int, kind: int | None) -> None:
        where = "file_id=?" + ("" if kind is None else f" AND kind={kind}")
        rowids = [
            r[0] for r in self.db.execute(f"SELECT rowid FROM fts_rows WHERE {where}", (file_id,))
        ]
        self.db.executemany("DELETE FROM fts WHERE rowid=?", ((r,) for r in rowids))
        self.db.executemany("DELETE FROM fts_rows WHERE rowid=?", ((r,) for r in rowids))

    def _write(self, update: Update) -> None:
        row, builder, summary = update.row, update.builder, update.summary
        text = summary.all_messages_text if summary else ""
        base = " ".join(builder.texts)
        record = orjson.dumps(summary.to_record()) if summary else None
        self.db.execute(
            "INSERT INTO files(path, size, mtime_ns, inode, head_len, head_hash, offset, "
            "is_session, state, summary, text, base_text) VALUES(?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, "
            "inode=excluded.inode, head_len=excluded.head_len, head_hash=excluded.head_hash, "
            "offset=excluded.offset, is_session=excluded.is_session, state=excluded.state, "
            "summary=excluded.summary, text=excluded.text, base_text=excluded.base_text",
            (row.path, row.size, row.mtime_ns, row.inode, row.head_len, row.head_hash,
             row.offset, int(row.is_session), orjson.dumps(builder.state()), record, text,
             None if base == text else base),
        )  # fmt: skip
        file_id = self.db.execute("SELECT id FROM files WHERE path=?", (row.path,)).fetchone()[0]
        self._write_fts(file_id, update)

    def _write_fts(self, file_id: int, update: Update) -> None:
        self._drop_fts(file_id, None if update.reset else KIND_META)
        summary = update.summary
        if summary is None:
            return
        meta = (None, summary.name or "", " ".join(summary.labels), summary.cwd, None)
        self._fts_insert(file_id, KIND_META, meta)
        texts, tools = update.builder.new_texts, update.builder.tools
        if texts or tools:
            self._fts_insert(
                file_id, KIND_CHUNK, (" ".join(texts), None, None, None, "\n".join(tools))
            )

    def _fts_insert(self, file_id: int, kind: int, values: tuple[str | None, ...]) -> None:
        cur = self.db.execute(
            "INSERT INTO fts(text, name, labels, cwd, tools) VALUES(?,?,?,?,?)", values
        )
        self.db.execute("INSERT INTO fts_rows VALUES(?,?,?)", (cur.lastrowid, file_id, kind))


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _version(db: sqlite3.Connection) -> str | None:
    try:
        found = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    except sqlite3.OperationalError:
        return None
    return found[0] if found else None


def _has_tables(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


def _drop_all(db: sqlite3.Connection) -> None:
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for name in ("fts", *names):
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute(f'DROP TABLE IF EXISTS "{name}"')
