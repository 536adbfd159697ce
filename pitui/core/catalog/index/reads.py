"""Reading the catalog index: file rows, stored summaries, a grown file's builder state, and
the paths the tool-output and conversation-text indexes match."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pitui.core.catalog import lossless_json
from pitui.core.catalog.index.records import FileRow, ToolTask
from pitui.core.catalog.index.schema import PENDING, prefix_range
from pitui.core.catalog.index.text_index import text_candidates, texts_left
from pitui.core.catalog.summary import SessionSummary

if TYPE_CHECKING:
    from pitui.core.catalog.session_info.builder import SummaryBuilder


class IndexReads:
    """The reading half of `Index` (`db` shared by every thread under `lock`)."""

    db: sqlite3.Connection
    lock: threading.RLock

    def rows(self, prefix: str = "") -> dict[str, FileRow]:
        """The rows of paths starting with `prefix` (a folder path ending with a separator)."""
        with self.lock:
            cur = self.db.execute(
                "SELECT path, size, mtime_ns, inode, head_len, head_hash, offset, is_session, "
                "ctime_ns, tail_hash FROM files WHERE path >= ? AND path < ?",
                prefix_range(prefix),
            )
            return {r[0]: FileRow(*r[:7], bool(r[7]), *r[8:]) for r in cur}

    def texts(self, prefix: str = "") -> dict[str, str]:
        """The conversation text of the sessions under `prefix` (as SQLite stores it)."""
        with self.lock:
            cur = self.db.execute(
                "SELECT path, text FROM files WHERE is_session=1 AND path >= ? AND path < ?",
                prefix_range(prefix),
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
                    sql + " AND path >= ? AND path < ?", prefix_range(prefix)
                ).fetchall()
            else:
                wanted = lossless_json.dumps(list(paths))
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
                "ctime_ns, tail_hash, state, text, base_text FROM files WHERE path=?",
                (path,),
            ).fetchone()
        if found is None:
            return None
        row = FileRow(*found[:7], bool(found[7]), *found[8:10])
        state, text, base = found[10:]
        from pitui.core.catalog.session_info.builder import SummaryBuilder  # only when a file grew

        builder = SummaryBuilder.from_state(
            lossless_json.loads(state), base if base is not None else text
        )
        return row, builder

    def tool_matches(self, fts_query: str, among: set[str] | None = None) -> set[str]:
        """Paths of sessions (of `among`, when given) whose indexed tool output matches an
        FTS5 query."""
        try:
            with self.lock:
                cur = self.db.execute(
                    "SELECT DISTINCT f.path FROM tool_fts JOIN tool_rows r "
                    "ON r.rowid = tool_fts.rowid JOIN files f ON f.id = r.file_id "
                    "WHERE tool_fts MATCH ?",
                    (fts_query,),
                )
                found = {row[0] for row in cur}
        except sqlite3.OperationalError:
            return set()
        return found if among is None else found & among

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
                    (lossless_json.dumps(list(paths)),),
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
