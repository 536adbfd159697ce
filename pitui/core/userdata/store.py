"""Pins and tags, and the folder moves of sessions, in a small SQLite file in the user data
folder.

They are the user's data, not a cache: nothing here is ever dropped to rebuild it. Keyed by
session id (so a moved, renamed, trashed and restored file keeps them), with the last path
they were set through. The schema has its own version (`PRAGMA user_version`); a file made
by a newer pitui is read-only for us.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pitui.core.errors import PituiError
from pitui.core.regular_file import file_kind

SCHEMA_VERSION = 1
ENV_VAR = "PITUI_DATA_DIR"
FILE_NAME = "userdata.sqlite3"
MAX_TAG_LENGTH = 64
WRITE_WAIT = 5.0  # seconds a pin or tag waits for another process to finish writing
READ_WAIT = 0.1  # a reader waits out a commit, never a process holding the file locked
_TAG = re.compile(r"^[^\s\x00-\x1f\x7f-\x9f\"]+$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    pinned_at REAL
);
CREATE TABLE IF NOT EXISTS tags (
    session_id TEXT NOT NULL REFERENCES sessions(session_id),
    tag TEXT NOT NULL,
    PRIMARY KEY (session_id, tag)
);
"""
# Made when first written, in a file of either version: older pitui versions ignore it.
_CWD_MOVES = """
CREATE TABLE IF NOT EXISTS cwd_moves (
    session_id TEXT NOT NULL,
    old_cwd TEXT NOT NULL,
    new_cwd TEXT NOT NULL,
    moved_at REAL NOT NULL
)
"""


@dataclass(frozen=True)
class CwdMove:
    """`pitui move` took a session from the folder `old` to `new` at `at` (epoch seconds)."""

    old: str
    new: str
    at: float


@dataclass(frozen=True)
class Marks:
    """What the user marked: pinned session ids, and tags by session id (sorted)."""

    pinned: frozenset[str] = frozenset()
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def is_pinned(self, session_id: object) -> bool:
        return isinstance(session_id, str) and session_id in self.pinned

    def tags_of(self, session_id: object) -> tuple[str, ...]:
        return self.tags.get(session_id, ()) if isinstance(session_id, str) else ()


def data_dir() -> Path:
    """`$PITUI_DATA_DIR`, else the platform's user data folder for pitui."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    from platformdirs import user_data_dir  # deferred: ~3 ms off a computed `pitui stats`

    return Path(user_data_dir("pitui"))


def check_tag(tag: str) -> str:
    """A tag as stored: no spaces, quotes or control characters (it is a search token)."""
    if not tag or len(tag) > MAX_TAG_LENGTH or not _TAG.match(tag):
        raise PituiError(
            f"invalid tag {tag!r}: use 1-{MAX_TAG_LENGTH} characters without spaces, quotes "
            "or control characters"
        )
    return tag


class UserData:
    """The pins-and-tags file; every method opens, works and closes (no lasting lock)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.path = (folder or data_dir()) / FILE_NAME

    # -- reading --------------------------------------------------------------------
    def marks(self) -> Marks:
        """Everything marked (empty when the file does not exist yet). Never waits: a file
        another process has locked is a PituiError at once, as is one that is not a file."""
        if not os.path.lexists(self.path):
            return Marks()
        with self._connect(write=False) as db:
            if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                return Marks()  # created but never written
            pinned = frozenset(
                row[0] for row in db.execute("SELECT session_id FROM sessions WHERE pinned_at")
            )
            tags: dict[str, list[str]] = {}
            for session_id, tag in db.execute("SELECT session_id, tag FROM tags ORDER BY tag"):
                tags.setdefault(session_id, []).append(tag)
        return Marks(pinned, {key: tuple(value) for key, value in tags.items()})

    def cwd_moves(self) -> dict[str, list[CwdMove]]:
        """The folder moves recorded, by session id, oldest first."""
        if not os.path.lexists(self.path):
            return {}
        with self._connect(write=False) as db:
            try:
                rows = db.execute(
                    "SELECT session_id, old_cwd, new_cwd, moved_at FROM cwd_moves ORDER BY moved_at"
                ).fetchall()
            except sqlite3.OperationalError:  # none recorded yet: no table
                return {}
        moves: dict[str, list[CwdMove]] = {}
        for session_id, old, new, at in rows:
            moves.setdefault(session_id, []).append(CwdMove(old, new, at))
        return moves

    # -- writing --------------------------------------------------------------------
    def record_cwd_moves(self, moves: Iterable[tuple[str, str, str]]) -> None:
        """Remember that each `(session id, old cwd, new cwd)` session moved now: its
        writes by absolute path under the old folder are the new folder's files."""
        now = time.time()
        with self._connect(write=True) as db:
            db.execute(_CWD_MOVES)
            db.executemany(
                "INSERT INTO cwd_moves VALUES (?, ?, ?, ?)",
                [(session_id, old, new, now) for session_id, old, new in moves],
            )

    def set_pinned(self, session_id: str, path: str, pinned: bool) -> bool:
        """Pin or unpin; returns whether anything changed."""
        with self._connect(write=True) as db:
            self._remember(db, session_id, path)
            when = time.time() if pinned else None
            test = "pinned_at IS NULL" if pinned else "pinned_at IS NOT NULL"
            cursor = db.execute(
                f"UPDATE sessions SET pinned_at = ? WHERE session_id = ? AND {test}",
                (when, session_id),
            )
            return cursor.rowcount > 0

    def add_tags(self, session_id: str, path: str, tags: Iterable[str]) -> list[str]:
        """Add tags; returns the ones that were new."""
        checked = [check_tag(tag) for tag in tags]
        with self._connect(write=True) as db:
            self._remember(db, session_id, path)
            added = []
            for tag in dict.fromkeys(checked):
                cursor = db.execute(
                    "INSERT OR IGNORE INTO tags (session_id, tag) VALUES (?, ?)",
                    (session_id, tag),
                )
                if cursor.rowcount:
                    added.append(tag)
            return added

    def remove_tags(self, session_id: str, path: str, tags: Iterable[str]) -> list[str]:
        """Remove tags; returns the ones that were there."""
        with self._connect(write=True) as db:
            self._remember(db, session_id, path)
            removed = []
            for tag in dict.fromkeys(tags):
                cursor = db.execute(
                    "DELETE FROM tags WHERE session_id = ? AND tag = ?", (session_id, tag)
                )
                if cursor.rowcount:
                    removed.append(tag)
            return removed

    def set_tags(self, session_id: str, path: str, tags: Iterable[str]) -> None:
        """Make the session's tags exactly `tags`."""
        checked = list(dict.fromkeys(check_tag(tag) for tag in tags))
        with self._connect(write=True) as db:
            self._remember(db, session_id, path)
            db.execute("DELETE FROM tags WHERE session_id = ?", (session_id,))
            db.executemany(
                "INSERT INTO tags (session_id, tag) VALUES (?, ?)",
                [(session_id, tag) for tag in checked],
            )

    # -- plumbing -------------------------------------------------------------------
    @staticmethod
    def _remember(db: sqlite3.Connection, session_id: str, path: str) -> None:
        db.execute(
            "INSERT INTO sessions (session_id, path) VALUES (?, ?) "
            "ON CONFLICT(session_id) DO UPDATE SET path = excluded.path",
            (session_id, path),
        )

    def _connect(self, *, write: bool) -> _Connection:
        return _Connection(self.path, write)


class _Connection:
    """A connection used as `with`: commits on success, rolls back on error, always closes;
    SQLite errors become one-line PituiErrors."""

    def __init__(self, path: Path, write: bool) -> None:
        self.path = path
        self.write = write
        self.db: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        try:
            if self.write:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._check_kind()
            uri = f"{self.path.resolve().as_uri()}?mode={'rwc' if self.write else 'ro'}"
            # a reader never waits long for another process's lock: a listing would hang on it
            wait = WRITE_WAIT if self.write else READ_WAIT
            self.db = sqlite3.connect(uri, uri=True, timeout=wait)
            self._check_schema(self.db)
        except (sqlite3.Error, OSError) as error:
            self._close()
            raise PituiError(self._problem(error)) from None
        return self.db

    def _check_kind(self) -> None:
        """A FIFO, a device or a folder in the file's place is said as such (SQLite would
        say "disk I/O error", or block on a FIFO)."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return
        if not stat.S_ISREG(mode):
            raise PituiError(
                f"the pins and tags file {self.path} is not a regular file ({file_kind(mode)})"
            )

    def _problem(self, error: BaseException) -> str:
        if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
            return f"the pins and tags file {self.path} is locked by another process"
        return f"cannot use the pins and tags file {self.path}: {error}"

    def _check_schema(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise PituiError(
                f"the pins and tags file {self.path} was made by a newer pitui "
                f"(schema {version}); it is left as it is"
            )
        if version < SCHEMA_VERSION and self.write:
            db.executescript(_SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        assert self.db is not None
        try:
            if kind is None:
                self.db.commit()
            else:
                self.db.rollback()
        except sqlite3.Error as failure:
            raise PituiError(f"cannot save the pins and tags file {self.path}: {failure}") from None
        finally:
            self._close()
        if isinstance(error, sqlite3.Error):
            raise PituiError(self._problem(error)) from None

    def _close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
