"""The persistent catalog index: SQLite (WAL) keyed by file path, with FTS5 indexes of tool
output and (as trigrams, see `text_index`) of conversation text.

Nothing in it is trusted over the files: rows carry size, mtime_ns, inode and a hash of the
file's first bytes; a schema-version mismatch or a corrupt database is rebuilt from scratch
(a corrupt one's files are deleted only while no other Index has them open: see `index_file.Claim`).

Summaries and conversation text live in `files` (the picker searches them in memory, as Pi
does). Tool output is indexed apart, after the listing (`tools_offset`: bytes of the file whose
tool output is in `tool_fts`). `tool_fts` is contentless (it stores no text), so a file's rows
are dropped by forgetting their `tool_rows` (the join hides them); the dead entries are
counted in `meta.tool_garbage` and the whole tool index is rebuilt when they outweigh the live.
One connection serves every thread; `lock` serialises its use.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from pitui.core import user_dirs

if TYPE_CHECKING:
    from pitui.core.catalog.builder import SummaryBuilder


from pitui.core.catalog import blobs
from pitui.core.catalog.index_file import BUSY_SECONDS, Claim, Unusable, busy, unusable
from pitui.core.catalog.summary import SessionSummary
from pitui.core.catalog.text_index import (
    TEXT_SCHEMA,
    index_text_step,
    retire_text,
    text_candidates,
    texts_left,
)

TOOL_FTS = """
CREATE VIRTUAL TABLE IF NOT EXISTS tool_fts USING fts5(
    tools, content='', tokenize='unicode61 remove_diacritics 2')"""
SCHEMA_VERSION = "pitui-catalog-7"
DB_NAME = "catalog.sqlite3"
SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, head_len INTEGER NOT NULL,
    head_hash BLOB NOT NULL, offset INTEGER NOT NULL, is_session INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL DEFAULT 0,
    tools_offset INTEGER NOT NULL DEFAULT 0, state BLOB, summary BLOB, text TEXT, base_text TEXT,
    text_rowid INTEGER);
CREATE INDEX IF NOT EXISTS files_tools_pending ON files(id)
    WHERE is_session=1 AND tools_offset < offset;
CREATE TABLE IF NOT EXISTS tool_rows(
    rowid INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tool_rows_file ON tool_rows(file_id);
"""
    + TOOL_FTS
    + ";"
    + TEXT_SCHEMA
)
PENDING = "is_session=1 AND tools_offset < offset"  # the files_tools_pending index's rows
GARBAGE_MIN = 64 * 1024 * 1024  # dead tool-index bytes tolerated before a rebuild


def default_cache_dir() -> Path:
    return user_dirs.cache_dir()


class FileRow(msgspec.Struct):
    """What the index knows about one file's bytes (a Struct: a warm listing makes one per
    file, and a dataclass costs several times as much to build)."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    head_len: int
    head_hash: bytes
    offset: int
    is_session: bool
    ctime_ns: int = 0


@dataclass
class Update:
    """One file's new index content (`reset`: its tool output must be indexed again).

    Made ready to write where the file was read (maybe a worker process): `state` is the
    builder's JSON state, `record` the summary's, `base_text` the conversation text of the
    complete lines when it differs from the summary's (a partial last line adds to that)."""

    row: FileRow
    summary: SessionSummary | None
    reset: bool
    state: bytes
    record: bytes | None
    base_text: str | None

    @classmethod
    def of(
        cls, row: FileRow, builder: SummaryBuilder, summary: SessionSummary | None, reset: bool
    ) -> Update:
        text = summary.all_messages_text if summary else ""
        base = " ".join(builder.texts)
        record = blobs.dumps(summary.to_record()) if summary else None
        state = blobs.dumps(builder.state())
        base_text = None if base == text else blobs.storable(base)
        return cls(row, summary, reset, state, record, base_text)


@dataclass(frozen=True)
class ToolTask:
    """Tool output still to index: bytes `start`..`end` of `path` (inode `inode`)."""

    file_id: int
    path: str
    start: int
    end: int
    inode: int


class Index:
    """The SQLite store; `path=None` keeps it in memory (`--no-cache`)."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.path = None if cache_dir is None else cache_dir / DB_NAME
        self.lock = threading.RLock()
        self.notice: str | None = None  # why a temporary in-memory index is used instead
        self._claim = Claim(self.path) if self.path is not None else None
        try:
            if self._claim is not None and not self._claim.share():
                self.db = self._temporary()  # another pitui is rebuilding it (for too long)
                return
            try:
                self.db = self._open()
            except sqlite3.DatabaseError as error:
                self.db = self._recover(error)
        except (OSError, sqlite3.Error) as error:  # the cache folder cannot be used at all
            self.db = self._without_file(error)

    def _connect(self) -> sqlite3.Connection:
        if self.path is None:
            return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISREG(os.stat(self.path).st_mode):  # e.g. a link to /dev/null
                raise Unusable("not a regular file")
        db = sqlite3.connect(
            self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
        )
        try:
            db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA cache_size=-32768")
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> sqlite3.Connection:
        db = self._connect()
        try:
            with _transaction(db):
                version = _version(db)
                if version != SCHEMA_VERSION:
                    if version is not None or _has_tables(db):
                        _drop_all(db)
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute("INSERT OR REPLACE INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
        except BaseException:
            db.close()
            raise
        return db

    def _recover(self, error: sqlite3.Error) -> sqlite3.Connection:
        """After a database error (our connection closed): a fresh database in place of a bad
        one, but only while no other connection has it open; else a temporary one in memory.

        A busy database is never rebuilt (another pitui holds it for too long). Nor is one
        another Index (this process's or another's) still has open: deleting its files from
        under that connection is what corrupts a SQLite database ("database disk image is
        malformed"), and the other connection may be mid-write."""
        if self.path is None:
            return self._open()
        if unusable(error):  # not corrupt: the place cannot hold it (full, read-only, ...)
            return self._without_file(error)
        if busy(error) or self._claim is None or not self._claim.exclusive():
            return self._temporary()
        try:
            return self._rebuild()
        except (sqlite3.Error, OSError) as again:
            return self._without_file(again)
        finally:
            if self.path is not None:
                self._claim.share()  # cannot wait: nobody else holds the claim now

    def _rebuild(self) -> sqlite3.Connection:
        """Throw the database away (corrupt or unreadable) and start a fresh one.

        Only with the exclusive claim: no other connection has these files open."""
        assert self.path is not None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").unlink()
        return self._open()

    def _temporary(self) -> sqlite3.Connection:
        """The database is busy or shared with another pitui: never delete it from under it;
        work in memory this time (the next start uses the file again)."""
        self.notice = (
            f"the session index {self.path} is in use by another pitui: "
            "using a temporary index (slower to start)"
        )
        self.path = None
        if self._claim is not None:
            self._claim.release()
        return self._open()

    def _without_file(self, error: BaseException) -> sqlite3.Connection:
        """The cache folder or file cannot be used (not a folder, read-only, full, ...): work
        in memory, as `--no-cache`, and say why once."""
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        self.notice = f"cannot use the session index {self.path} ({reason}): listing without it"
        self.path = None
        if self._claim is not None:
            self._claim.release()
        return self._open()

    def reset(self, error: sqlite3.Error) -> None:
        """After a database error: rebuild a corrupt index no one else has open, else go on
        with a temporary one (see `_recover`)."""
        with self.lock:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = self._recover(error)

    def close(self) -> None:
        with self.lock:
            self.db.close()
            if self._claim is not None:
                self._claim.release()

    @contextlib.contextmanager
    def bulk(self, enabled: bool) -> Iterator[None]:
        """Building a new index: skip fsyncs meanwhile (a crash leaves a corrupt index, rebuilt)."""
        if not enabled or self.path is None:
            yield
            return
        with self.lock:
            self.db.execute("PRAGMA synchronous=OFF")
        try:
            yield
        finally:
            with self.lock, contextlib.suppress(sqlite3.Error):
                self.db.execute("PRAGMA synchronous=NORMAL")

    # -- reading -----------------------------------------------------------------------------

    def rows(self, prefix: str = "") -> dict[str, FileRow]:
        """The rows of paths starting with `prefix` (a folder path ending with a separator)."""
        with self.lock:
            cur = self.db.execute(
                "SELECT path, size, mtime_ns, inode, head_len, head_hash, offset, is_session, "
                "ctime_ns FROM files WHERE path >= ? AND path < ?",
                _prefix_range(prefix),
            )
            return {r[0]: FileRow(*r[:7], bool(r[7]), r[8]) for r in cur}

    def texts(self, prefix: str = "") -> dict[str, str]:
        """The conversation text of the sessions under `prefix` (as SQLite stores it)."""
        with self.lock:
            cur = self.db.execute(
                "SELECT path, text FROM files WHERE is_session=1 AND path >= ? AND path < ?",
                _prefix_range(prefix),
            )
            return {path: text or "" for path, text in cur}

    def summaries(
        self, paths: Iterable[str] | None = None, prefix: str = "", with_text: bool = True
    ) -> dict[str, SessionSummary]:
        """The stored summaries (`with_text` False: without their conversation text, see
        `SessionSummary.text_loaded`)."""
        sql = (
            f"SELECT path, summary, {'text' if with_text else 'NULL'} FROM files WHERE is_session=1"
        )
        with self.lock:
            if paths is None:
                found = self.db.execute(
                    sql + " AND path >= ? AND path < ?", _prefix_range(prefix)
                ).fetchall()
            else:
                wanted = blobs.dumps(list(paths))
                found = self.db.execute(
                    sql + " AND path IN (SELECT value FROM json_each(?))", (wanted,)
                ).fetchall()
        return {
            p: SessionSummary.from_record(s, (t or "") if with_text else None) for p, s, t in found
        }

    def builder(self, path: str) -> tuple[FileRow, SummaryBuilder] | None:
        """The file's row and its summary state, read together (None if not indexed)."""
        with self.lock:
            found = self.db.execute(
                "SELECT path, size, mtime_ns, inode, head_len, head_hash, offset, is_session, "
                "ctime_ns, state, text, base_text FROM files WHERE path=?",
                (path,),
            ).fetchone()
        if found is None:
            return None
        row = FileRow(*found[:7], bool(found[7]), found[8])
        state, text, base = found[9:]
        from pitui.core.catalog.builder import SummaryBuilder  # only when a file grew

        builder = SummaryBuilder.from_state(blobs.loads(state), base if base is not None else text)
        return row, builder

    def tool_matches(self, fts_query: str) -> set[str]:
        """Paths of sessions whose indexed tool output matches an FTS5 query."""
        try:
            with self.lock:
                cur = self.db.execute(
                    "SELECT DISTINCT f.path FROM tool_fts JOIN tool_rows r "
                    "ON r.rowid = tool_fts.rowid JOIN files f ON f.id = r.file_id "
                    "WHERE tool_fts MATCH ?",
                    (fts_query,),
                )
                return {row[0] for row in cur}
        except sqlite3.OperationalError:
            return set()

    def tool_tasks(self, paths: Iterable[str] | None = None) -> list[ToolTask]:
        """Sessions whose tool output is not all indexed yet (all, or just these paths)."""
        sql = (
            "SELECT id, path, tools_offset, offset, inode FROM files "
            f"INDEXED BY files_tools_pending WHERE {PENDING}"
        )
        with self.lock:
            if paths is None:
                found = self.db.execute(sql + " ORDER BY id").fetchall()
            else:
                found = self.db.execute(
                    sql + " AND path IN (SELECT value FROM json_each(?))",
                    (blobs.dumps(list(paths)),),
                ).fetchall()
        return [ToolTask(*r) for r in found]

    def tool_tasks_left(self) -> bool:
        with self.lock:
            return (
                self.db.execute(
                    f"SELECT 1 FROM files INDEXED BY files_tools_pending WHERE {PENDING} LIMIT 1"
                ).fetchone()
                is not None
            )

    # -- writing -----------------------------------------------------------------------------

    def write(self, updates: Iterable[Update], deleted: Iterable[str] = ()) -> list[str]:
        """Store the updates, forget the deleted; returns the paths it could not store (kept
        in memory only: read again next time). A database error is raised (the caller
        rebuilds the index or works without it); any other error costs only its file."""
        updates, deleted = list(updates), list(deleted)
        with self.lock:
            try:
                with _transaction(self.db):
                    for path in deleted:
                        self._delete(path)
                    for update in updates:
                        self._write(update)
                return []
            except sqlite3.DatabaseError:
                raise
            except Exception:  # e.g. a file name that is not UTF-8: one file at a time
                return self._write_each(updates, deleted)

    def _write_each(self, updates: list[Update], deleted: list[str]) -> list[str]:
        failed: list[str] = []
        for path, update in [(p, None) for p in deleted] + [(u.row.path, u) for u in updates]:
            try:
                with _transaction(self.db):
                    if update is None:
                        self._delete(path)
                    else:
                        self._write(update)
            except sqlite3.DatabaseError:
                raise
            except Exception:
                failed.append(path)
        return failed

    def _delete(self, path: str) -> None:
        found = self.db.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        if found is None:
            return
        self._drop_tools(found[0])
        retire_text(self.db, found[0])
        self.db.execute("DELETE FROM files WHERE id=?", (found[0],))

    def _drop_tools(self, file_id: int) -> None:
        dead = self.db.execute(
            "SELECT count(*), sum(bytes) FROM tool_rows WHERE file_id=?", (file_id,)
        ).fetchone()
        if not dead[0]:
            return
        self.db.execute("DELETE FROM tool_rows WHERE file_id=?", (file_id,))
        self.db.execute(
            "INSERT INTO meta VALUES('tool_garbage', ?) ON CONFLICT(key) "
            "DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value",
            (dead[1] or 0,),
        )

    def _write(self, update: Update) -> None:
        row, summary = update.row, update.summary
        text = blobs.storable(summary.all_messages_text) if summary else ""
        reset = update.reset or summary is None
        old = self.db.execute("SELECT id, text FROM files WHERE path=?", (row.path,)).fetchone()
        if old is not None and (old[1] != text or summary is None):
            retire_text(self.db, old[0])
        found = self.db.execute(
            "INSERT INTO files(path, size, mtime_ns, inode, head_len, head_hash, offset, "
            "is_session, state, summary, text, base_text, ctime_ns) "
            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, "
            "ctime_ns=excluded.ctime_ns, "
            "inode=excluded.inode, head_len=excluded.head_len, head_hash=excluded.head_hash, "
            "offset=excluded.offset, is_session=excluded.is_session, state=excluded.state, "
            "summary=excluded.summary, text=excluded.text, base_text=excluded.base_text, "
            f"tools_offset={'0' if reset else 'tools_offset'} RETURNING id",
            (row.path, row.size, row.mtime_ns, row.inode, row.head_len, row.head_hash,
             row.offset, int(row.is_session), update.state, update.record, text,
             update.base_text, row.ctime_ns),
        ).fetchone()  # fmt: skip
        if reset:
            self._drop_tools(found[0])

    def add_tools(self, done: Iterable[tuple[ToolTask, str]]) -> None:
        """Index tool output read for these tasks (skipped where the file row moved on)."""
        with self.lock, _transaction(self.db):
            for task, text in done:
                current = self.db.execute(
                    "SELECT tools_offset, offset, inode, is_session FROM files WHERE id=?",
                    (task.file_id,),
                ).fetchone()
                if current is None or current[0] != task.start or current[1] < task.end:
                    continue
                if current[2] != task.inode or not current[3]:
                    continue
                if text:
                    text = blobs.storable(text)
                    rowid = self.db.execute(
                        "INSERT INTO tool_rows(file_id, bytes) VALUES(?,?)",
                        (task.file_id, len(text)),
                    ).lastrowid
                    self.db.execute("INSERT INTO tool_fts(rowid, tools) VALUES(?,?)", (rowid, text))
                self.db.execute(
                    "UPDATE files SET tools_offset=? WHERE id=?", (task.end, task.file_id)
                )

    def text_matches(self, trigrams: list[str]) -> set[str] | None:
        """Paths of sessions whose conversation text may contain a string with these
        trigrams (see `text_index`); None if the index cannot say."""
        try:
            with self.lock:
                return text_candidates(self.db, trigrams)
        except sqlite3.Error:
            return None

    def texts_left(self) -> bool:
        with self.lock:
            return texts_left(self.db)

    def index_texts(self, stop: threading.Event) -> None:
        """Bring the conversation-text index up to date, a short transaction at a time."""
        while not stop.is_set():
            with self.lock, _transaction(self.db):
                if not index_text_step(self.db):
                    return

    def collect_tool_garbage(self) -> bool:
        """Rebuild the tool index from scratch when dead entries outweigh live ones."""
        with self.lock:
            found = self.db.execute("SELECT value FROM meta WHERE key='tool_garbage'").fetchone()
            garbage = int(found[0]) if found else 0
            if garbage < GARBAGE_MIN:
                return False
            live = self.db.execute("SELECT coalesce(sum(bytes), 0) FROM tool_rows").fetchone()[0]
            if garbage < live:
                return False
            with _transaction(self.db):
                self.db.execute("DROP TABLE tool_fts")
                self.db.execute(TOOL_FTS)
                self.db.execute("DELETE FROM tool_rows")
                self.db.execute("UPDATE files SET tools_offset=0")
                self.db.execute("DELETE FROM meta WHERE key='tool_garbage'")
            return True


def _prefix_range(prefix: str) -> tuple[str, str]:
    """Bounds of the paths starting with `prefix` (an index range scan, not a LIKE)."""
    if not prefix:
        return "", "\U0010ffff"
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


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
    for name in ("fts", "tool_fts", "text_fts", *names):
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute(f'DROP TABLE IF EXISTS "{name}"')
