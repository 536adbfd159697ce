"""The index's database file: opening it (`IndexFile`), who has it open (`Claim`), and which
SQLite errors mean what (`busy`: another pitui holds it, `unusable`: the place cannot hold it).

A schema-version mismatch or a corrupt database is rebuilt from scratch, but a corrupt one's
files are deleted only while no other Index has them open (`Claim`); when the file cannot be
used, the index works in memory and `notice` says why.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from pathlib import Path

from pitui.core.catalog.index.schema import create_schema, outdated

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

BUSY_SECONDS = 5.0  # waiting for another pitui's write before working without the file
LOCK_SHARED = getattr(fcntl, "LOCK_SH", 1)
LOCK_EXCLUSIVE = getattr(fcntl, "LOCK_EX", 2)


class Claim:
    """Who has the database open: each Index on it holds a shared `flock` on a lock file beside
    it (released by the OS if the process dies); deleting the files needs it exclusively.

    SQLite's own locks cannot say this: a WAL connection between transactions holds none that
    a probe could see, and a corrupt file cannot be opened to ask."""

    def __init__(self, db_path: Path) -> None:
        self.path = Path(f"{db_path}.lock")
        self.fd: int | None = None

    def _flock(self, mode: int) -> bool:
        if fcntl is None:  # Windows: no flock, but a file SQLite has open cannot be deleted
            return True
        if self.fd is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:
                return mode != LOCK_EXCLUSIVE  # unlockable cache dir: never delete
        try:
            fcntl.flock(self.fd, mode | fcntl.LOCK_NB)
            return True
        except OSError:
            return False

    def share(self) -> bool:
        """Take the shared claim, waiting (a while) for another Index's rebuild to finish."""
        deadline = time.monotonic() + BUSY_SECONDS
        while not self._flock(LOCK_SHARED):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def exclusive(self) -> bool:
        """Whether no other Index has the database open (then this one holds it alone).

        On failure the shared claim may be lost too (flock converts by unlocking first):
        the caller then stops using the file."""
        return self._flock(LOCK_EXCLUSIVE)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # drops the flock
            self.fd = None


class Unusable(OSError):
    """The database path exists but is no file SQLite should write (a device, a FIFO)."""


_UNUSABLE_CODES = (
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_AUTH,
)


def unusable(error: sqlite3.Error) -> bool:
    """Errors of the place, not of the database's content: rebuilding would not help."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _UNUSABLE_CODES
    text = str(error)
    return any(word in text for word in ("full", "readonly", "unable to open", "I/O error"))


def busy(error: sqlite3.Error) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock (not corruption)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error) or "busy" in str(error)


class IndexFile:
    """Where the index lives (`path`, None: in memory) and how its connection is opened;
    `notice` says why a temporary in-memory index is used instead of the file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.notice: str | None = None
        self._claim = Claim(path) if path is not None else None

    def open(self) -> sqlite3.Connection:
        """The connection, to the file if it can be used, else to a temporary database."""
        try:
            if self._claim is not None and not self._claim.share():
                return self._temporary()  # another pitui is rebuilding it (for too long)
            try:
                return self._open()
            except sqlite3.DatabaseError as error:
                return self.recover(error)
        except (OSError, sqlite3.Error) as error:  # the cache folder cannot be used at all
            return self._without_file(error)

    def recover(self, error: sqlite3.Error) -> sqlite3.Connection:
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

    def release(self) -> None:
        if self._claim is not None:
            self._claim.release()

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
            if self._claim is not None and outdated(db):
                db = self._replace_outdated(db, self._claim)
            create_schema(db)
        except BaseException:
            db.close()
            raise
        return db

    def _replace_outdated(self, db: sqlite3.Connection, claim: Claim) -> sqlite3.Connection:
        """An index of another schema: deleted and made anew while no other Index has it
        open, in no time, where emptying it took seconds before the app could draw (a
        10,000-session index: 4 s, most of it dropping its tables); else emptied in place
        (`create_schema`)."""
        if not claim.exclusive():
            if claim.share():
                return db
            db.close()
            return self._temporary()  # another pitui is rebuilding it
        db.close()
        try:
            self._delete_files()
            return self._connect()
        finally:
            claim.share()  # cannot wait: nobody else holds the claim now

    def _rebuild(self) -> sqlite3.Connection:
        """Throw the database away (corrupt or unreadable) and start a fresh one.

        Only with the exclusive claim: no other connection has these files open."""
        self._delete_files()
        return self._open()

    def _delete_files(self) -> None:
        assert self.path is not None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").unlink()

    def _temporary(self) -> sqlite3.Connection:
        """The database is busy or shared with another pitui: never delete it from under it;
        work in memory this time (the next start uses the file again)."""
        self.notice = (
            f"the session index {self.path} is in use by another pitui: "
            "using a temporary index (slower to start)"
        )
        self.path = None
        self.release()
        return self._open()

    def _without_file(self, error: BaseException) -> sqlite3.Connection:
        """The cache folder or file cannot be used (not a folder, read-only, full, ...): work
        in memory, as `--no-cache`, and say why once."""
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        self.notice = f"cannot use the session index {self.path} ({reason}): listing without it"
        self.path = None
        self.release()
        return self._open()
