"""The persistent catalog index: SQLite (WAL) keyed by file path, with FTS5 indexes of tool
output and (as trigrams, see `text_index`) of conversation text.

Nothing in it is trusted over the files: rows carry size, mtime_ns, ctime_ns, inode and
hashes of the file's first bytes and of those just before where reading resumes (see
`scan.scanner`: a file changed other than by an append is read again whole); a bad or
unusable database file is dealt with in `file` (`IndexFile`).

Summaries live in `files`, conversation text in `text_parts` (a growing session's by its
appended parts, see `text_index`). Tool output is
indexed apart, after the listing (`tools_offset`: bytes of the file whose tool output is in
`tool_fts`). `tool_fts` is contentless (it stores no text), so a file's rows
are dropped by forgetting their `tool_rows` (the join hides them); the dead entries are
counted in `meta.tool_garbage` and the whole tool index is rebuilt when they outweigh the live.
One connection serves every thread; `lock` serialises its use. The tables are in `schema`,
what moves in and out of the index in `records`.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pitui.core import user_dirs
from pitui.core.catalog import lossless_json
from pitui.core.catalog.index import text_index
from pitui.core.catalog.index.file import IndexFile
from pitui.core.catalog.index.records import FileOps, FileRow, ToolPiece, ToolTask, Update
from pitui.core.catalog.index.schema import (
    DB_NAME,
    PENDING,
    SCHEMA_VERSION,
    TOOL_FTS,
    give_back_free_pages,
    prefix_range,
    transaction,
)
from pitui.core.catalog.index.text_index import index_text_step, retire_text, texts_left
from pitui.core.catalog.index.tool_words import tool_query
from pitui.core.catalog.lossless_json import has_surrogates, storable
from pitui.core.catalog.summary import SessionSummary

if TYPE_CHECKING:
    from pitui.core.catalog.session_info.builder import SummaryBuilder

__all__ = [
    "DB_NAME",
    "SCHEMA_VERSION",
    "FileRow",
    "Index",
    "ToolTask",
    "Update",
    "default_cache_dir",
]

GARBAGE_MIN = 64 * 1024 * 1024  # dead tool-index bytes tolerated before a rebuild
KEPT_BUILDERS = 4  # files whose builder is kept to resume from (see `Index.builder`)
SEARCH_WAIT_MAX = 5.0  # seconds the text pass waits for searches before its next step


def default_cache_dir() -> Path:
    return user_dirs.cache_dir()


_ROW = "path, size, mtime_ns, inode, head_len, head_hash, offset, is_session, ctime_ns, tail_hash"


def _file_row(found: tuple) -> FileRow:
    """The `FileRow` of a result whose first columns are `_ROW`'s."""
    return FileRow(*found[:7], bool(found[7]), *found[8:10])


_PACKED = b"\x00"  # no JSON text starts with it
_PI_IDS = re.compile(rb'\[(?:"[0-9a-f]{8}",)*"[0-9a-f]{8}"\]')


def stored_parents(parents: list[object]) -> bytes:
    """A part of a tree's parent ids as stored: Pi's ids (8 hex digits) packed in 4 bytes
    each, any other list as JSON. As JSON a part of 200 ids is a row of 2.2 KB, which took a
    4 KB page of its own (41 MB at 10,000 sessions; 8 MB packed). Compressing them instead
    cost 0.7-1 s of a cold listing's main process (random hex is slow to deflate)."""
    text = lossless_json.dumps(parents)
    if _PI_IDS.fullmatch(text):
        return _PACKED + bytes.fromhex(text[2:-2].replace(b'","', b"").decode())
    return text


def parents_of(stored: bytes) -> list[object]:
    """The parent ids of a part as `stored_parents` wrote them."""
    if stored[:1] == _PACKED:
        digits = stored[1:].hex()
        return [digits[i : i + 8] for i in range(0, len(digits), 8)]
    return list(lossless_json.loads(stored))


class Index:
    """The SQLite store; `cache_dir=None` keeps it in memory (`--no-cache`)."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.file = IndexFile(None if cache_dir is None else cache_dir / DB_NAME)
        self.lock = threading.RLock()
        self._searches = 0  # searches under way: the text pass waits for them between steps
        self._searches_done = threading.Condition()
        self.db = self.file.open()
        # the builders of the files last written here, by path, to resume from while their
        # rows are as written (a session being written: neither its state nor its parents
        # read back on each change); a few, the latest
        self._kept: dict[str, tuple[FileRow, SummaryBuilder]] = {}

    @property
    def path(self) -> Path | None:
        """The database file (None: a database in memory)."""
        return self.file.path

    @property
    def notice(self) -> str | None:
        """Why a temporary in-memory index is used instead of the file (None: it is not)."""
        return self.file.notice

    def reset(self, error: sqlite3.Error) -> None:
        """After a database error: rebuild a corrupt index no one else has open, else go on
        with a temporary one (see `IndexFile.recover`)."""
        with self.lock:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = self.file.recover(error)

    def close(self) -> None:
        with self.lock:
            self.db.close()
            self.file.release()

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
                f"SELECT {_ROW} FROM files WHERE path >= ? AND path < ?", prefix_range(prefix)
            )
            return {r[0]: _file_row(r) for r in cur}

    def rows_and_summaries(
        self, prefix: str = ""
    ) -> tuple[dict[str, FileRow], dict[str, SessionSummary]]:
        """`rows(prefix)` and the stored summaries of the sessions among them (without their
        text), in one pass over the table (a first scan wants both)."""
        rows: dict[str, FileRow] = {}
        summaries: dict[str, SessionSummary] = {}
        with self.lock:
            cur = self.db.execute(
                f"SELECT {_ROW}, summary FROM files WHERE path >= ? AND path < ?",
                prefix_range(prefix),
            )
            for r in cur:
                rows[r[0]] = _file_row(r)
                if r[7]:
                    summaries[r[0]] = SessionSummary.from_record(r[10], None)
        return rows, summaries

    def rows_of(self, paths: Iterable[str]) -> dict[str, FileRow]:
        """The rows of these paths (those indexed)."""
        wanted = lossless_json.dumps(list(paths))
        with self.lock:
            cur = self.db.execute(
                f"SELECT {_ROW} FROM files WHERE path IN (SELECT value FROM json_each(?))",
                (wanted,),
            )
            return {r[0]: _file_row(r) for r in cur}

    def not_sessions(self) -> list[str]:
        """The paths of the indexed files that are not sessions."""
        with self.lock:
            return [p for (p,) in self.db.execute("SELECT path FROM files WHERE is_session=0")]

    def summaries(
        self, paths: Iterable[str] | None = None, prefix: str = "", with_text: bool = True
    ) -> dict[str, SessionSummary]:
        """The stored summaries (`with_text` False: without their conversation text, see
        `SessionSummary.text_loaded`)."""
        sql = "SELECT path, summary, id, tail_text FROM files WHERE is_session=1"
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
                path: SessionSummary.from_record(
                    record, text_index.whole_text(self.db, file_id, tail) if with_text else None
                )
                for path, record, file_id, tail in found
            }

    def builder(self, path: str) -> tuple[FileRow, SummaryBuilder] | None:
        """The file's row and its summary state, read together (None if not indexed). The
        builder holds none of the stored conversation text, only its length (see
        `SummaryBuilder.text_before`): what it reads next is appended to it (`_write`).
        The parents its tree names are stored apart, by the parts each read added
        (`tree_parts`); the builder written last for this row is taken as it is (`keep`)."""
        with self.lock:
            found = self.db.execute(
                f"SELECT {_ROW}, id, text_chars FROM files WHERE path=?",
                (path,),
            ).fetchone()
            if found is None:
                return None
            row = _file_row(found)
            file_id, chars = found[10:]
            kept = self._kept.pop(path, None)
            if kept is not None and kept[0] == row:
                return row, kept[1].resume_here(chars)
            state = self.db.execute("SELECT state FROM files WHERE id=?", (file_id,)).fetchone()
            parts = self.db.execute(
                "SELECT ids FROM tree_parts WHERE file_id=? ORDER BY rowid", (file_id,)
            ).fetchall()
        # deferred: see ARCHITECTURE.md
        from pitui.core.catalog.session_info.builder import SummaryBuilder

        fields = lossless_json.loads(state[0])
        fields["parents"] = [name for (ids,) in parts for name in parents_of(ids)]
        builder = SummaryBuilder.from_state(fields, text_before=chars)
        return row, builder

    def keep(self, updates: Iterable[Update]) -> None:
        """Keep the builders of these written updates to resume from (see `builder`)."""
        with self.lock:
            for update in updates:
                if update.builder is not None:
                    self._kept.pop(update.row.path, None)  # the newest last
                    self._kept[update.row.path] = (update.row, update.builder)
                    update.builder = None
            while len(self._kept) > KEPT_BUILDERS:
                del self._kept[next(iter(self._kept))]

    def tool_matches(self, value: str, prefix: bool, among: set[str] | None = None) -> set[str]:
        """Paths of sessions (of `among`, when given) whose indexed tool output holds every
        word of `value`, the last as a prefix when `prefix` (see `tool_words`)."""
        fts_query = tool_query(value, prefix)
        if fts_query is None:
            return set()
        try:
            with self.lock:
                cur = self.db.execute(
                    "SELECT DISTINCT f.path FROM tool_fts JOIN tool_rows r "
                    "ON r.rowid = tool_fts.rowid JOIN files f INDEXED BY files_path_by_id "
                    "ON f.id = r.file_id "
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

    def tools_unknown(self, paths: Iterable[str]) -> set[str]:
        """Those of `paths` whose tool output the index does not hold whole: not indexed yet,
        or the file not stored at all (a name that is not UTF-8, see `write`)."""
        wanted = set(paths)
        sql = (
            "SELECT path FROM files WHERE path IN (SELECT value FROM json_each(?)) "
            "AND tools_offset >= offset"
        )
        with self.lock:
            held = self.db.execute(sql, (lossless_json.dumps(list(wanted)),)).fetchall()
        return wanted.difference(path for (path,) in held)

    def tool_tasks_left(self) -> bool:
        with self.lock:
            return (
                self.db.execute(
                    f"SELECT 1 FROM files INDEXED BY files_tools_pending WHERE {PENDING} LIMIT 1"
                ).fetchone()
                is not None
            )

    def text_holding(
        self, value: str, among: set[str], on_text: Callable[[], None] = lambda: None
    ) -> set[str]:
        """Paths of `among` whose conversation text holds `value` (a search form, see
        `text_index`); `on_text()` is called for each stored text read meanwhile."""
        with self.lock:
            return text_index.holding(self.db, value, among, on_text)

    def holds_text(self, path: str) -> bool:
        """Whether the session's conversation text is stored (searchable in the index)."""
        if lossless_json.has_surrogates(path):  # a name not UTF-8: never stored
            return False
        with self.lock:
            found = self.db.execute("SELECT 1 FROM files WHERE path=?", (path,)).fetchone()
        return found is not None

    def texts_where(
        self,
        found: Callable[[str], bool],
        among: set[str],
        on_text: Callable[[], None] = lambda: None,
    ) -> set[str]:
        """Paths of `among` whose conversation text (as stored) satisfies `found`;
        `on_text()` before each text (it may raise to stop)."""
        kept = set()
        with self.lock:
            for path, text in text_index.texts_of(self.db, among):
                on_text()
                if found(text):
                    kept.add(path)
        return kept

    def texts_pending_bytes(self) -> int:
        with self.lock:
            return text_index.pending_bytes(self.db)

    def search_index_done_bytes(self) -> int:
        """What the search index holds, counted as progress counts what is left: characters
        of conversation text indexed and bytes of session files whose tool output is in."""
        with self.lock:
            found = self.db.execute(
                "SELECT coalesce(sum(min(tools_offset, offset)), 0) FROM files WHERE is_session=1"
            ).fetchone()
            return int(found[0]) + text_index.indexed_bytes(self.db)

    def texts_left(self) -> bool:
        with self.lock:
            return texts_left(self.db)

    # -- writing -----------------------------------------------------------------------------

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
        text_index.drop_parts(self.db, found[0])
        self.db.execute("DELETE FROM tree_parts WHERE file_id=?", (found[0],))
        self.db.execute("DELETE FROM files WHERE id=?", (found[0],))

    def _drop_tools(self, file_id: int) -> None:
        self.db.execute("DELETE FROM file_writes WHERE file_id=?", (file_id,))
        self.db.execute("DELETE FROM file_oks WHERE file_id=?", (file_id,))
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
        reset = update.reset or summary is None
        old = self.db.execute(
            "SELECT id, text_rowid, text_chars, tail_text FROM files WHERE path=?", (row.path,)
        ).fetchone()
        if update.after is not None:
            if old is None or old[2] != update.after:
                return  # another catalog on this cache moved the row on: its content stands
            if not has_surrogates(update.base + update.tail):
                self._append(update, old, reset)
                return
            update = self._whole(update, old[0])
        base, tail = storable(update.base), storable(update.tail)
        if old is not None and old[1] is not None:  # indexed: is its text another now?
            stored = text_index.whole_text(self.db, old[0], old[3])
            if summary is None or stored != base + tail:
                retire_text(self.db, old[0])
        found = self.db.execute(
            "INSERT INTO files(path, size, mtime_ns, inode, head_len, head_hash, offset, "
            "is_session, state, summary, text_chars, tail_text, ctime_ns, tail_hash) "
            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, "
            "ctime_ns=excluded.ctime_ns, tail_hash=excluded.tail_hash, "
            "inode=excluded.inode, head_len=excluded.head_len, head_hash=excluded.head_hash, "
            "offset=excluded.offset, is_session=excluded.is_session, state=excluded.state, "
            "summary=excluded.summary, text_chars=excluded.text_chars, "
            "tail_text=excluded.tail_text, "
            f"tools_offset={'0' if reset else 'tools_offset'} RETURNING id",
            (row.path, row.size, row.mtime_ns, row.inode, row.head_len, row.head_hash,
             row.offset, int(row.is_session), update.state, update.record, len(base),
             tail or None, row.ctime_ns, row.tail_hash),
        ).fetchone()  # fmt: skip
        text_index.write_whole(self.db, found[0], base)
        self._add_parents(found[0], update)
        if reset:
            self._drop_tools(found[0])

    def _append(
        self, update: Update, old: tuple[int, int | None, int, str | None], reset: bool
    ) -> None:
        """Store a resumed read's text by appending its part (see `text_index`): the text
        before it is neither read nor written again."""
        row, (file_id, indexed, _, old_tail) = update.row, old
        changed = update.base or update.tail != (old_tail or "") or update.summary is None
        if indexed is not None and changed:
            retire_text(self.db, file_id)
        text_index.append_part(self.db, file_id, update.base)
        self.db.execute(
            "UPDATE files SET size=?, mtime_ns=?, ctime_ns=?, tail_hash=?, inode=?, head_len=?, "
            "head_hash=?, offset=?, is_session=?, state=?, summary=?, "
            "text_chars=text_chars+?, tail_text=?, "
            f"tools_offset={'0' if reset else 'tools_offset'} WHERE id=?",
            (row.size, row.mtime_ns, row.ctime_ns, row.tail_hash, row.inode, row.head_len,
             row.head_hash, row.offset, int(row.is_session), update.state, update.record,
             len(update.base), update.tail or None, file_id),
        )  # fmt: skip
        self._add_parents(file_id, update)
        if reset:
            self._drop_tools(file_id)

    def _add_parents(self, file_id: int, update: Update) -> None:
        """Store the parents the update's read named first (all of them on a reset): a
        growing session's are appended as a part, not its whole set written again."""
        if update.reset:
            self.db.execute("DELETE FROM tree_parts WHERE file_id=?", (file_id,))
        if update.parents:
            self.db.execute(
                "INSERT INTO tree_parts(file_id, ids) VALUES(?, ?)",
                (file_id, stored_parents(update.parents)),
            )

    def _whole(self, update: Update, file_id: int) -> Update:
        """A resumed read whose new text has a lone surrogate: its state and record must then
        hold the whole text (SQLite's cannot), so the stored text before it is read."""
        base = text_index.base_text(self.db, file_id) + update.base
        text = base + update.tail
        state = lossless_json.loads(update.state)
        state.pop("text", None)
        if has_surrogates(base):
            state["text"] = base
        record = None
        if update.record is not None:
            summary = SessionSummary.from_record(update.record, None)
            summary.all_messages_text = text
            record = summary.stored_record()
        return replace(
            update, state=lossless_json.dumps(state), record=record, base=base, after=None
        )

    def add_tools(self, done: Iterable[ToolPiece]) -> None:
        """Index tool output and file ops read for these tasks (skipped where the file row
        moved on)."""
        with self.lock, transaction(self.db):
            for task, text, ops in done:
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
                self._add_file_ops(task.file_id, ops)
                self.db.execute(
                    "UPDATE files SET tools_offset=? WHERE id=?", (task.end, task.file_id)
                )

    def _add_file_ops(self, file_id: int, ops: FileOps) -> None:
        self.db.executemany(
            "INSERT INTO file_writes(file_id, call_id, path) VALUES(?,?,?)",
            [(file_id, storable(call_id), storable(path)) for call_id, path in ops.writes],
        )
        self.db.executemany(
            "INSERT INTO file_oks(file_id, call_id) VALUES(?,?)",
            [(file_id, storable(call_id)) for call_id in ops.succeeded],
        )

    def sessions_writing(self, targets: Iterable[str]) -> set[str]:
        """Paths of the sessions with a successful write or edit call (as far as their tool
        output is indexed) of a target (absolute and resolved) or of anything under it. A
        path that is not UTF-8 is stored, and asked, with U+FFFD for its lone surrogates:
        the sessions that wrote it are among those found."""
        found: set[str] = set()
        sql = (
            "SELECT DISTINCT f.path FROM file_writes w JOIN files f ON f.id = w.file_id "
            "WHERE (w.path = ? OR (w.path >= ? AND w.path < ?)) AND EXISTS (SELECT 1 FROM "
            "file_oks o WHERE o.file_id = w.file_id AND o.call_id = w.call_id)"
        )
        with self.lock:
            for target in map(storable, targets):
                low, high = prefix_range(target if target.endswith("/") else target + "/")
                found.update(r[0] for r in self.db.execute(sql, (target, low, high)))
        return found

    def index_texts(
        self, stop: threading.Event, progress: Callable[[int, int], None] | None = None
    ) -> None:
        """Bring the conversation-text index up to date, a short transaction at a time;
        `progress(done, total)` in bytes of text."""
        for _ in self.text_steps(stop, progress):
            pass

    def text_steps(
        self, stop: threading.Event, progress: Callable[[int, int], None] | None = None
    ) -> Iterator[int]:
        """`index_texts`, a step (a short transaction) each time it is advanced, so that the
        caller can write something else between two; yields the characters each indexed."""
        total = self.texts_pending_bytes() if progress else 0
        done = 0
        while not stop.is_set():
            self.after_searches()
            with self.lock, transaction(self.db):
                indexed = index_text_step(self.db)
            if indexed is None:
                if progress:
                    progress(total, total)
                break
            done += indexed  # (asking for what is left after each step cost 1.3 s of 13)
            if progress:
                progress(min(done, total), total)
            yield indexed
        if not stop.is_set():  # closing stays prompt
            self.give_back_free_pages()

    @contextlib.contextmanager
    def searching(self) -> Iterator[None]:
        """A search under way: the text pass writes no step meanwhile. A search asks the
        index several times, and the pass took the index again right after each step (up to
        0.2 s) before a waiting search woke: one search waited for the whole pass."""
        with self._searches_done:
            self._searches += 1
        try:
            yield
        finally:
            with self._searches_done:
                self._searches -= 1
                self._searches_done.notify_all()

    def after_searches(self) -> None:
        """Wait (at most `SEARCH_WAIT_MAX`) for the searches under way: a background pass
        writes after them."""
        with self._searches_done:
            self._searches_done.wait_for(lambda: self._searches == 0, timeout=SEARCH_WAIT_MAX)

    def give_back_free_pages(self) -> None:
        """Shrink the file when indexing left many pages free."""
        with self.lock, contextlib.suppress(sqlite3.Error):
            give_back_free_pages(self.db)

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
                self.db.execute("DELETE FROM file_writes")
                self.db.execute("DELETE FROM file_oks")
                self.db.execute("UPDATE files SET tools_offset=0")
                self.db.execute("DELETE FROM meta WHERE key='tool_garbage'")
            return True
