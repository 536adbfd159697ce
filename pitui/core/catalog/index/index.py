"""The persistent catalog index: SQLite (WAL) keyed by file path, with FTS5 indexes of tool
output and (as trigrams, see `text_index`) of conversation text.

Nothing in it is trusted over the files: rows carry size, mtime_ns, ctime_ns, inode and
hashes of the file's first bytes and of those just before where reading resumes (see
`scanner`: a file changed other than by an append is read again whole); a schema-version
mismatch or a corrupt database is rebuilt from scratch (a corrupt one's files are deleted
only while no other Index has them open: see `index_file.Claim`).

Summaries and conversation text live in `files` (the picker searches them in memory, as Pi
does). Tool output is indexed apart, after the listing (`tools_offset`: bytes of the file whose
tool output is in `tool_fts`). `tool_fts` is contentless (it stores no text), so a file's rows
are dropped by forgetting their `tool_rows` (the join hides them); the dead entries are
counted in `meta.tool_garbage` and the whole tool index is rebuilt when they outweigh the live.
One connection serves every thread; `lock` serialises its use.

This module opens the database (and falls back to a temporary one when it cannot be used);
the tables are in `index_schema`, reading in `index_reads`, writing in `index_writes`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

from pitui.core import user_dirs
from pitui.core.catalog.index.file import BUSY_SECONDS, Claim, Unusable, busy, unusable
from pitui.core.catalog.index.reads import IndexReads
from pitui.core.catalog.index.records import FileRow, ToolTask, Update
from pitui.core.catalog.index.schema import DB_NAME, SCHEMA_VERSION, create_schema
from pitui.core.catalog.index.writes import IndexWrites

__all__ = [
    "DB_NAME",
    "SCHEMA_VERSION",
    "FileRow",
    "Index",
    "ToolTask",
    "Update",
    "default_cache_dir",
]


def default_cache_dir() -> Path:
    return user_dirs.cache_dir()


class Index(IndexReads, IndexWrites):
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
            create_schema(db)
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
