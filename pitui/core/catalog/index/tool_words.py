"""The tool-output index's query for a search token: the words FTS5 makes of it, all required.

The index keeps no positions (`detail=none`: a tenth of the size with positions on a
10,000-session store, and a third of the time to build), so it cannot tell whether words
are next to each other: a token of several words (`cache_2472`, `src/app.py`) matches tool
output that holds each of them, the last as a word prefix unless the token is a quoted
phrase. The words are cut by SQLite's own tokenizer, so they are exactly the index's terms.
"""

from __future__ import annotations

import sqlite3
import threading

TOOL_TOKENIZER = "unicode61 remove_diacritics 2"

_local = threading.local()


def tool_query(value: str, prefix: bool) -> str | None:
    """The FTS5 query matching tool output that holds every word of `value` (the last as a
    prefix when `prefix`); None when `value` has no word at all."""
    words = _words(value)
    if not words:
        return None
    quoted = ['"' + word.replace('"', '""') + '"' for word in words]
    if prefix:
        quoted[-1] += "*"
    return " AND ".join(quoted)


def _words(value: str) -> list[str]:
    db = _tokenizer()
    with db:
        db.execute("DELETE FROM words")
        db.execute("INSERT INTO words(rowid, text) VALUES(1, ?)", (value,))
        found = db.execute("SELECT term FROM terms ORDER BY offset").fetchall()
    return [term for (term,) in found]


def _tokenizer() -> sqlite3.Connection:
    db: sqlite3.Connection | None = getattr(_local, "db", None)
    if db is None:
        db = sqlite3.connect(":memory:")
        db.execute(f"CREATE VIRTUAL TABLE words USING fts5(text, tokenize='{TOOL_TOKENIZER}')")
        db.execute("CREATE VIRTUAL TABLE terms USING fts5vocab(words, instance)")
        _local.db = db
    return db
