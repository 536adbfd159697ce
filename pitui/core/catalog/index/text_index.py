"""A trigram index over every session's conversation text: which sessions may contain a string.

The picker searches conversation text as Pi does, by substring in memory; over thousands of
sessions that is a scan of every byte for a word found nowhere. An FTS5 trigram index answers
"which sessions hold every trigram of this string" in a millisecond, and only those are
scanned. It is a prefilter: the scan still decides, so results stay exactly Pi's.

The table is contentless (stores no text). A file's indexed text is recorded by
`files.text_rowid`; when its text changes the old text moves to `text_dead` until the
background pass deletes it from the index (FTS5 needs the indexed values to delete them).
Files whose `text_rowid` is NULL are not indexed yet: searches scan them.
"""

from __future__ import annotations

import sqlite3

TEXT_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS text_fts USING fts5(
    text, content='', detail=none, tokenize='trigram case_sensitive 1');
CREATE VIRTUAL TABLE IF NOT EXISTS text_vocab USING fts5vocab(text_fts, row);
CREATE TABLE IF NOT EXISTS text_dead(rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_text_pending ON files(id)
    WHERE is_session=1 AND text_rowid IS NULL;
CREATE INDEX IF NOT EXISTS files_text_rowid ON files(text_rowid) WHERE text_rowid IS NOT NULL;
"""
TEXT_PENDING = "is_session=1 AND text_rowid IS NULL"
STEP_BYTES = 2 * 1024 * 1024  # text indexed per transaction: searches wait at most one step
COMMON = 0.25  # a string whose rarest trigram is in more of the sessions is scanned for
RAREST = 4  # trigrams the index intersects (the rarest): enough to rule out most sessions


def indexed_form(text: str) -> str:
    """What is indexed for a text: lowercased as the search lowercases it (`lower_text`)."""
    return text.lower()


def retire_text(db: sqlite3.Connection, file_id: int) -> None:
    """The file's text is about to change or go: queue its indexed text for deletion."""
    found = db.execute("SELECT text_rowid, text FROM files WHERE id=?", (file_id,)).fetchone()
    if found is None or found[0] is None:
        return
    db.execute("INSERT OR REPLACE INTO text_dead VALUES(?, ?)", (found[0], found[1] or ""))
    db.execute("UPDATE files SET text_rowid=NULL WHERE id=?", (file_id,))


def index_text_step(db: sqlite3.Connection) -> bool:
    """Delete retired texts or index pending ones, about `STEP_BYTES` of text (the caller
    holds a write transaction). False when nothing was left to do."""
    dead = db.execute("SELECT rowid, text FROM text_dead LIMIT 64").fetchall()
    for rowid, text in dead:
        db.execute(
            "INSERT INTO text_fts(text_fts, rowid, text) VALUES('delete', ?, ?)",
            (rowid, indexed_form(text)),
        )
        db.execute("DELETE FROM text_dead WHERE rowid=?", (rowid,))
    if dead:
        return True
    pending = db.execute(
        f"SELECT id, text FROM files INDEXED BY files_text_pending WHERE {TEXT_PENDING} LIMIT 256"
    ).fetchall()
    size = 0
    for file_id, text in pending:
        rowid = _next_rowid(db)
        db.execute(
            "INSERT INTO text_fts(rowid, text) VALUES(?, ?)", (rowid, indexed_form(text or ""))
        )
        db.execute("UPDATE files SET text_rowid=? WHERE id=?", (rowid, file_id))
        size += len(text or "")
        if size >= STEP_BYTES:
            break
    return bool(pending)


def _next_rowid(db: sqlite3.Connection) -> int:
    found = db.execute(
        "INSERT INTO meta VALUES('text_rowid', 1) ON CONFLICT(key) "
        "DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value"
    ).fetchone()
    return int(found[0])


def texts_left(db: sqlite3.Connection) -> bool:
    """Whether some session's text is not indexed, or some retired text not yet deleted."""
    pending = db.execute(
        f"SELECT 1 FROM files INDEXED BY files_text_pending WHERE {TEXT_PENDING} LIMIT 1"
    ).fetchone()
    return (
        pending is not None or db.execute("SELECT 1 FROM text_dead LIMIT 1").fetchone() is not None
    )


def text_candidates(db: sqlite3.Connection, trigrams: list[str]) -> set[str] | None:
    """Paths of sessions whose text may contain a string with these trigrams: those whose
    indexed text has them all, and those not indexed yet. None when the string is common
    (the scan finds it at once in most sessions; narrowing would cost more than it saves)."""
    marks = ",".join("?" * len(trigrams))
    found = db.execute(f"SELECT term, doc FROM text_vocab WHERE term IN ({marks})", trigrams)
    docs = dict(found.fetchall())
    hits: set[str] = set()
    if len(docs) == len(set(trigrams)):  # else some trigram is in no indexed text at all
        rarest = sorted(docs, key=docs.__getitem__)[:RAREST]
        indexed = db.execute(
            "SELECT count(*) FROM files INDEXED BY files_text_rowid WHERE text_rowid IS NOT NULL"
        ).fetchone()[0]
        if docs[rarest[0]] > indexed * COMMON:
            return None
        match = " AND ".join('"' + gram.replace('"', '""') + '"' for gram in rarest)
        hits = {
            row[0]
            for row in db.execute(
                "SELECT f.path FROM text_fts JOIN files f ON f.text_rowid = text_fts.rowid "
                "WHERE text_fts MATCH ?",
                (match,),
            )
        }
    pending = db.execute(
        f"SELECT path FROM files INDEXED BY files_text_pending WHERE {TEXT_PENDING}"
    )
    hits.update(row[0] for row in pending)
    return hits
