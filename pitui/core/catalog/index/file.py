"""The index file's sharing and failure modes: who has it open (`Claim`), and which SQLite
errors mean what (`busy`: another pitui holds it, `unusable`: the place cannot hold it)."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

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
