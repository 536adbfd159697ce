"""A trigram index over every session's conversation text: which sessions contain a string.

Pi's picker matches a word or phrase as a substring of the lowercased text (a phrase with
whitespace runs as one space). The index holds that form (`search_form`) in an FTS5 trigram
table with positions (`detail=full`), so a quoted FTS5 phrase of the string is exactly that
substring test, answered from the index without reading any text: a search over thousands
of sessions costs milliseconds and no text in memory.

A string of one or two characters has no trigram of its own, but every indexed text ends
with `INDEX_END` (two newlines, which no search form holds), so each place such a string
occurs starts a trigram: the texts holding it are those holding any indexed trigram that
starts with it (listed by the `text_vocab` table, a range of its sorted terms), asked in
OR queries of up to `TERMS_PER_QUERY` trigrams (the look-up of a two-letter word at 10,000
generated sessions: 0.013 s, where SQLite's `LIKE` over the 170 MB of stored text took
0.12-0.28 s).

What the index cannot answer is read from the stored texts instead (`holding`): strings
with a NUL or U+FFFD (lone surrogates are stored as U+FFFD), and the files not indexed yet.

Indexing 10,000 sessions' text (170 MB) costs seconds: with `automerge` off (segments are
merged only when 16 pile up at a level) and 8,000-byte leaves it costs 30% less CPU for an
index 8% larger, queries as fast (measured on 4,000 sessions). FTS5 writes its in-memory
terms to the file each time they pass its `hashsize` (1 MB by default), several times per
step; at 8 MB it writes them once per step, and the text of 10,000 sessions is indexed in
12.0 s of CPU instead of 14.3-15.7 s, for 4 MB more memory while it runs.

The table is contentless (stores no text). A file's indexed text is recorded by
`files.text_rowid`; when its text changes the old text moves to `text_dead` until the
background pass deletes it from the index (FTS5 needs the indexed values to delete them).
Files whose `text_rowid` is NULL are not indexed yet.

The text of a file of `SETTLE_MIN_BYTES` or more is indexed once the file has not changed for
`SETTLE_SECONDS`: each change of a session Pi is writing would otherwise delete its whole old
text from the index and insert the whole new one (with a 30 MB session written at 50 lines a
second, the app's memory grew 107 -> 600 MB in 32 minutes, SQLite's own to 102 MB). Until then
its text is read as for any file not indexed yet, so answers stay the same. Smaller files cost
little to index again, and are indexed at once (a store just copied has every file new). The
floor was 1 MB: a session written below it had its whole text deleted from the index and
inserted again on each change, allocations growing with it to 1 MB, four times a second with
pi at work (malloc's free space grew 17 MB in the soak's first minute, see PERFORMANCE.md).

A session's stored text is its `text_parts` in rowid order, then `files.tail_text` (what a
partial last line adds); the parts are the text of its complete lines, `files.text_chars`
characters long, from which a resumed read goes on (`SummaryBuilder.text_before`). A change
that appends lines appends a part, without reading or rewriting the text before it: rewriting
a growing session's whole text (to 16 M characters) on every change, and reading it back, grew
the app's memory by tens of MB a minute (malloc's free space). The parts are joined into one
when the text is indexed, and replaced when the whole text is written again. The text lives
apart from the `files` row: held in it (17 KB a session), it spread the rows a listing reads
over five times the pages, and a warm command's read of 10,000 rows took 0.065-0.083 s
instead of 0.034 s.
"""

from __future__ import annotations

import itertools
import operator
import sqlite3
import time
from collections.abc import Callable, Iterator

from pitui.core.catalog import lossless_json
from pitui.core.format.jsvalues import normalize_ws_lower

TEXT_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS text_fts USING fts5(
    text, content='', tokenize='trigram case_sensitive 1');
CREATE VIRTUAL TABLE IF NOT EXISTS text_vocab USING fts5vocab(text_fts, row);
INSERT INTO text_fts(text_fts, rank) VALUES('automerge', 0);
INSERT INTO text_fts(text_fts, rank) VALUES('pgsz', 8000);
INSERT INTO text_fts(text_fts, rank) VALUES('hashsize', 8388608);
CREATE TABLE IF NOT EXISTS text_dead(rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_text_pending ON files(id)
    WHERE is_session=1 AND text_rowid IS NULL;
-- the path in it: a search's matches as paths without reading the rows (10,000: 30 -> 19 ms)
CREATE INDEX IF NOT EXISTS files_text_rowid ON files(text_rowid, path)
    WHERE text_rowid IS NOT NULL;
CREATE TABLE IF NOT EXISTS text_parts(
    rowid INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS text_parts_file ON text_parts(file_id);
"""
TEXT_PENDING = "is_session=1 AND text_rowid IS NULL"
SETTLE_SECONDS = 60.0  # a large file unchanged this long has its text indexed
SETTLE_MIN_BYTES = 64 * 1024  # smaller files are indexed at once
STEP_BYTES = 2 * 1024 * 1024  # text indexed per transaction: searches wait at most one step
search_form = normalize_ws_lower  # what a search value is matched in
INDEX_END = "\n\n"  # after each indexed text: see the module's docstring
TERMS_PER_QUERY = 200  # trigrams OR-ed in one FTS5 query (a one-letter word may have thousands)


def indexed_form(text: str) -> str:
    """What the index holds of a text."""
    return search_form(text) + INDEX_END


def indexable(value: str) -> bool:
    """Whether the index answers for `value` (a search form) exactly."""
    return bool(value) and "\x00" not in value and "\ufffd" not in value


def holding(
    db: sqlite3.Connection, value: str, among: set[str], on_text: Callable[[], None]
) -> set[str]:
    """The paths of `among` whose conversation text's search form contains `value` (itself
    a search form): from the index where it can say, else read from the stored texts
    (`on_text()` is called for each text read, so a caller can stop a long scan)."""
    found = _indexed_holding(db, value, among) if indexable(value) else None
    if found is None:
        found, unanswered = set(), texts_of(db, among)
    else:
        unanswered = texts_of(db, among, pending_only=True) if _any_pending(db) else iter(())
    spaced = " " in value  # else the lowercased text answers as its search form would
    for path, text in unanswered:
        on_text()
        if value in (search_form(text) if spaced else text.lower()):
            found.add(path)
    return found


def _indexed_holding(db: sqlite3.Connection, value: str, among: set[str]) -> set[str] | None:
    """The paths of `among` whose indexed text holds `value` (None: the index cannot say)."""
    if len(value) >= 3:
        queries = [_phrase(value)]
    else:  # each occurrence starts a trigram (see the module's docstring)
        terms = _terms_starting(db, value)
        queries = [
            " OR ".join(_phrase(term) for term in terms[start : start + TERMS_PER_QUERY])
            for start in range(0, len(terms), TERMS_PER_QUERY)
        ]
    found: set[str] = set()
    try:
        for query in queries:
            cur = db.execute(
                "SELECT f.path FROM text_fts JOIN files f ON f.text_rowid = text_fts.rowid "
                "WHERE text_fts MATCH ?",
                (query,),
            )
            found |= {path for (path,) in cur if path in among}
    except sqlite3.OperationalError:  # the index cannot read it: every text is read instead
        return None
    return found


def _terms_starting(db: sqlite3.Connection, value: str) -> list[str]:
    """The indexed trigrams that start with `value` (a range of the sorted terms)."""
    cur = db.execute(
        "SELECT term FROM text_vocab WHERE term >= ? AND term <= ?", (value, value + "\U0010ffff")
    )
    return [term for (term,) in cur if term.startswith(value)]


def _phrase(value: str) -> str:
    """An FTS5 phrase of `value`: its trigrams, next to each other."""
    return '"' + value.replace('"', '""') + '"'


def _any_pending(db: sqlite3.Connection, settled: bool = False) -> bool:
    where, values = _pending(settled)
    query = f"SELECT 1 FROM files INDEXED BY files_text_pending WHERE {where} LIMIT 1"
    return db.execute(query, values).fetchone() is not None


def _pending(settled: bool) -> tuple[str, tuple[int, ...]]:
    """The condition for texts not indexed (`settled`: of files unchanged for a while)."""
    if not settled:
        return TEXT_PENDING, ()
    settled_before = time.time_ns() - int(SETTLE_SECONDS * 1e9)
    # an mtime of 0 is a file that grew while it was read (see `scanner.read_update`): being
    # written, not settled (taken as settled, a growing session's whole text was indexed and
    # deleted again now and then, tens of MB of malloc's free space each time)
    condition = f"{TEXT_PENDING} AND (size < ? OR (mtime_ns > 0 AND mtime_ns < ?))"
    return condition, (SETTLE_MIN_BYTES, settled_before)


def texts_of(
    db: sqlite3.Connection, paths: set[str], pending_only: bool = False
) -> Iterator[tuple[str, str]]:
    """(path, stored text) of these sessions (`pending_only`: of those not indexed yet).
    Their parts are read in one query, in the index's order: a query for each session's
    made a search that reads 10,000 stored texts 18% slower."""
    where = TEXT_PENDING if pending_only else "is_session=1"
    files = db.execute(
        f"SELECT id, path, tail_text FROM files "
        f"WHERE {where} AND path IN (SELECT value FROM json_each(?))",
        (lossless_json.dumps(list(paths)),),
    ).fetchall()
    tails = {file_id: (path, tail or "") for file_id, path, tail in files}
    parts = db.execute(
        "SELECT file_id, text FROM text_parts WHERE file_id IN (SELECT value FROM json_each(?)) "
        "ORDER BY file_id, rowid",
        (lossless_json.dumps(sorted(tails)),),
    )
    for file_id, texts in itertools.groupby(parts, key=operator.itemgetter(0)):
        path, tail = tails.pop(file_id)
        yield path, "".join(text for _, text in texts) + tail
    yield from tails.values()  # no complete line held text


def _parts(db: sqlite3.Connection, file_id: int) -> list[str]:
    found = db.execute("SELECT text FROM text_parts WHERE file_id=? ORDER BY rowid", (file_id,))
    return [part for (part,) in found]


def base_text(db: sqlite3.Connection, file_id: int) -> str:
    """The text of a file's complete lines: its parts, joined."""
    return "".join(_parts(db, file_id))


def whole_text(db: sqlite3.Connection, file_id: int, tail: str | None) -> str:
    """A file's stored conversation text, whole (`tail`: its `files.tail_text`)."""
    return base_text(db, file_id) + (tail or "")


def stored_text(db: sqlite3.Connection, file_id: int) -> str:
    """A file's stored conversation text, whole, by its id."""
    (tail,) = db.execute("SELECT tail_text FROM files WHERE id=?", (file_id,)).fetchone()
    return whole_text(db, file_id, tail)


def append_part(db: sqlite3.Connection, file_id: int, part: str) -> None:
    """Add to the text of the file's complete lines (its `text_chars` is the caller's)."""
    if part:
        db.execute("INSERT INTO text_parts(file_id, text) VALUES(?, ?)", (file_id, part))


def drop_parts(db: sqlite3.Connection, file_id: int) -> None:
    """The file's whole text is written again (or the file forgotten)."""
    db.execute("DELETE FROM text_parts WHERE file_id=?", (file_id,))


def write_whole(db: sqlite3.Connection, file_id: int, base: str) -> None:
    """The text of the file's complete lines is `base` now, as one part."""
    drop_parts(db, file_id)
    append_part(db, file_id, base)


def retire_text(db: sqlite3.Connection, file_id: int) -> None:
    """The file's text is about to change or go: queue its indexed text for deletion."""
    found = db.execute("SELECT text_rowid FROM files WHERE id=?", (file_id,)).fetchone()
    if found is None or found[0] is None:
        return
    db.execute(
        "INSERT OR REPLACE INTO text_dead VALUES(?, ?)", (found[0], stored_text(db, file_id))
    )
    db.execute("UPDATE files SET text_rowid=NULL WHERE id=?", (file_id,))


def index_text_step(db: sqlite3.Connection) -> int | None:
    """Delete retired texts or index pending ones, about `STEP_BYTES` of text (the caller
    holds a write transaction); returns the characters indexed, None when nothing was left
    to do."""
    dead = db.execute("SELECT rowid, text FROM text_dead LIMIT 64").fetchall()
    for rowid, text in dead:
        db.execute(
            "INSERT INTO text_fts(text_fts, rowid, text) VALUES('delete', ?, ?)",
            (rowid, indexed_form(text)),
        )
        db.execute("DELETE FROM text_dead WHERE rowid=?", (rowid,))
    if dead:
        return 0
    where, values = _pending(settled=True)
    pending = db.execute(
        f"SELECT id, tail_text FROM files INDEXED BY files_text_pending WHERE {where} LIMIT 256",
        values,
    ).fetchall()
    if not pending:
        return None
    size = 0
    for file_id, tail in pending:
        parts = _parts(db, file_id)
        base = "".join(parts)
        if len(parts) > 1:  # joined into one, once
            write_whole(db, file_id, base)
        text = base + (tail or "")
        rowid = _next_rowid(db)
        db.execute("INSERT INTO text_fts(rowid, text) VALUES(?, ?)", (rowid, indexed_form(text)))
        db.execute("UPDATE files SET text_rowid=? WHERE id=?", (rowid, file_id))
        size += len(text)
        if size >= STEP_BYTES:
            break
    return size


def _next_rowid(db: sqlite3.Connection) -> int:
    found = db.execute(
        "INSERT INTO meta VALUES('text_rowid', 1) ON CONFLICT(key) "
        "DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value"
    ).fetchone()
    return int(found[0])


def texts_left(db: sqlite3.Connection) -> bool:
    """Whether some session's settled text is not indexed, or some retired text not yet
    deleted."""
    dead = db.execute("SELECT 1 FROM text_dead LIMIT 1").fetchone()
    return _any_pending(db, settled=True) or dead is not None


def indexed_bytes(db: sqlite3.Connection) -> int:
    """Characters of conversation text indexed (as `pending_bytes` counts what is not)."""
    found = db.execute(
        "SELECT coalesce(sum(text_chars + coalesce(length(tail_text), 0)), 0) "
        "FROM files WHERE is_session=1 AND text_rowid IS NOT NULL"
    ).fetchone()
    return int(found[0])


def pending_bytes(db: sqlite3.Connection) -> int:
    """Bytes of settled conversation text not indexed yet (for a progress bar)."""
    where, values = _pending(settled=True)
    found = db.execute(
        "SELECT coalesce(sum(text_chars + coalesce(length(tail_text), 0)), 0) "
        f"FROM files INDEXED BY files_text_pending WHERE {where}",
        values,
    ).fetchone()
    return int(found[0])
