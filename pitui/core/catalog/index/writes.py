"""Writing the catalog index: files' rows and summaries, their tool output, the trigram index
of conversation text, and the rebuild of a tool index that is mostly dead entries."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable

from pitui.core.catalog import lossless_json
from pitui.core.catalog.index.records import ToolTask, Update
from pitui.core.catalog.index.schema import TOOL_FTS, transaction
from pitui.core.catalog.index.text_index import index_text_step, retire_text

GARBAGE_MIN = 64 * 1024 * 1024  # dead tool-index bytes tolerated before a rebuild


class IndexWrites:
    """The writing half of `Index` (`db` shared by every thread under `lock`)."""

    db: sqlite3.Connection
    lock: threading.RLock

    def write(self, updates: Iterable[Update], deleted: Iterable[str] = ()) -> list[str]:
        """Store the updates, forget the deleted; returns the paths it could not store (kept
        in memory only: read again next time). A database error is raised (the caller
        rebuilds the index or works without it); any other error costs only its file."""
        updates, deleted = list(updates), list(deleted)
        with self.lock:
            try:
                with transaction(self.db):
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
                with transaction(self.db):
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
        text = lossless_json.storable(summary.all_messages_text) if summary else ""
        reset = update.reset or summary is None
        old = self.db.execute("SELECT id, text FROM files WHERE path=?", (row.path,)).fetchone()
        if old is not None and (old[1] != text or summary is None):
            retire_text(self.db, old[0])
        found = self.db.execute(
            "INSERT INTO files(path, size, mtime_ns, inode, head_len, head_hash, offset, "
            "is_session, state, summary, text, base_text, ctime_ns, tail_hash) "
            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, "
            "ctime_ns=excluded.ctime_ns, tail_hash=excluded.tail_hash, "
            "inode=excluded.inode, head_len=excluded.head_len, head_hash=excluded.head_hash, "
            "offset=excluded.offset, is_session=excluded.is_session, state=excluded.state, "
            "summary=excluded.summary, text=excluded.text, base_text=excluded.base_text, "
            f"tools_offset={'0' if reset else 'tools_offset'} RETURNING id",
            (row.path, row.size, row.mtime_ns, row.inode, row.head_len, row.head_hash,
             row.offset, int(row.is_session), update.state, update.record, text,
             update.base_text, row.ctime_ns, row.tail_hash),
        ).fetchone()  # fmt: skip
        if reset:
            self._drop_tools(found[0])

    def add_tools(self, done: Iterable[tuple[ToolTask, str]]) -> None:
        """Index tool output read for these tasks (skipped where the file row moved on)."""
        with self.lock, transaction(self.db):
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
                    text = lossless_json.storable(text)
                    rowid = self.db.execute(
                        "INSERT INTO tool_rows(file_id, bytes) VALUES(?,?)",
                        (task.file_id, len(text)),
                    ).lastrowid
                    self.db.execute("INSERT INTO tool_fts(rowid, tools) VALUES(?,?)", (rowid, text))
                self.db.execute(
                    "UPDATE files SET tools_offset=? WHERE id=?", (task.end, task.file_id)
                )

    def index_texts(self, stop: threading.Event) -> None:
        """Bring the conversation-text index up to date, a short transaction at a time."""
        while not stop.is_set():
            with self.lock, transaction(self.db):
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
            with transaction(self.db):
                self.db.execute("DROP TABLE tool_fts")
                self.db.execute(TOOL_FTS)
                self.db.execute("DELETE FROM tool_rows")
                self.db.execute("UPDATE files SET tools_offset=0")
                self.db.execute("DELETE FROM meta WHERE key='tool_garbage'")
            return True
