"""The catalog index's SQLite schema: its tables, its version (a mismatch rebuilds it from
scratch) and the small SQL helpers every part of the index shares."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from pitui.core.catalog.index.text_index import TEXT_SCHEMA
from pitui.core.catalog.index.tool_words import TOOL_TOKENIZER

TOOL_FTS = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS tool_fts USING fts5(
    tools, content='', detail=none, tokenize='{TOOL_TOKENIZER}')"""
# 13: text_parts (a growing session's text by its parts); 14: tree_parts (its parents too);
# 15: indexed texts end with INDEX_END (short words answered by the index)
# 16: indexes from a text rowid and from a file id to the path; Pi's ids packed in tree_parts
# 17: the text only in text_parts (out of the files rows a listing reads)
SCHEMA_VERSION = "pitui-catalog-18"
DB_NAME = "catalog.sqlite3"
SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, head_len INTEGER NOT NULL,
    head_hash BLOB NOT NULL, offset INTEGER NOT NULL, is_session INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL DEFAULT 0, tail_hash BLOB NOT NULL DEFAULT x'',
    tools_offset INTEGER NOT NULL DEFAULT 0, state BLOB, summary BLOB, tail_text TEXT,
    text_chars INTEGER NOT NULL DEFAULT 0, text_rowid INTEGER);
CREATE INDEX IF NOT EXISTS files_tools_pending ON files(id)
    WHERE is_session=1 AND tools_offset < offset;
-- a path by its file's id without reading the row (its texts and states make it large): a
-- search's tool-output matches as paths 24 -> 16 ms at 10,000 sessions
CREATE INDEX IF NOT EXISTS files_path_by_id ON files(id, path);
CREATE TABLE IF NOT EXISTS tool_rows(
    rowid INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tool_rows_file ON tool_rows(file_id);
CREATE TABLE IF NOT EXISTS file_writes(
    file_id INTEGER NOT NULL, call_id TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS file_writes_path ON file_writes(path, file_id, call_id);
CREATE INDEX IF NOT EXISTS file_writes_file ON file_writes(file_id);
CREATE TABLE IF NOT EXISTS file_oks(file_id INTEGER NOT NULL, call_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS file_oks_call ON file_oks(file_id, call_id);
CREATE TABLE IF NOT EXISTS tree_parts(
    rowid INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, ids BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS tree_parts_file ON tree_parts(file_id);
"""
    + TOOL_FTS
    + ";"
    + TEXT_SCHEMA
)
FREE_PAGES_KEPT = 2048  # 8 MB free in the file is left for the next writes
PENDING = "is_session=1 AND tools_offset < offset"  # the files_tools_pending index's rows


def create_schema(db: sqlite3.Connection) -> None:
    """Create the tables, dropping all of an older (or unknown) schema's first (and giving
    their pages back: a rebuilt 10,000-session index left a file of twice its size); free
    pages can be given back later (`give_back_free_pages`)."""
    created = False
    with transaction(db):
        if _version(db) != SCHEMA_VERSION:
            if outdated(db):
                _drop_all(db)
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
            created = True
    if created:
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # takes effect with the VACUUM
        with contextlib.suppress(sqlite3.Error):  # another pitui reading it: next time
            db.execute("VACUUM")


def outdated(db: sqlite3.Connection) -> bool:
    """Whether the database holds an index of another schema (`create_schema` empties it)."""
    version = _version(db)
    return version != SCHEMA_VERSION and (version is not None or _has_tables(db))


def give_back_free_pages(db: sqlite3.Connection) -> None:
    """Shrink the file by its free pages when they are many (FTS5's segment merges leave
    a tenth of the file free after indexing a big store)."""
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    if free >= FREE_PAGES_KEPT:
        db.executescript("PRAGMA incremental_vacuum;")  # a script: stepped to its end


def prefix_range(prefix: str) -> tuple[str, str]:
    """Bounds of the paths starting with `prefix` (an index range scan, not a LIKE)."""
    if not prefix:
        return "", "\U0010ffff"
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
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
    for name in ("fts", "tool_fts", "text_fts", *names):
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute(f'DROP TABLE IF EXISTS "{name}"')
