"""Which session files hold credentials, remembered per file (path, size, mtime, inode,
ctime) in `secrets-cache.json` in the cache folder, so that only new and changed files are
read again: a grown file from where its last read ended, when the bytes at the start and just
before that point are still there (an append); any other change (an edit in place, the size
kept and the mtime set back) reads it again whole.

Only the kinds and counts are kept, never a value. The detector's patterns are part of the
cache's identity: new patterns empty it. Written to a temporary file renamed into place; a
damaged or unwritable cache is only rebuilt, never an error.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson

from pitui.core.cache_file import file_stamp, read_cache, regular_stat, write_cache
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular_file
from pitui.core.secrets.patterns import PATTERNS
from pitui.core.secrets.scan import SessionSecrets, scan_session

SCHEMA_VERSION = "pitui-secrets-3"
FILE_NAME = "secrets-cache.json"
MARK_BYTES = 4096


def _meta() -> dict[str, str]:
    patterns = repr([(p.kind, p.regex.pattern) for p in PATTERNS]).encode()
    return {"schema": SCHEMA_VERSION, "detector": hashlib.blake2b(patterns).hexdigest()[:16]}


class SecretsCache:
    """Kinds of credentials per session file; `kinds_of` reads only what changed."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE_NAME
        self.notice: str | None = None
        # path: [size, mtime_ns, inode, ctime_ns, {kind: n}, bytes scanned, lines, mark]
        self._files: dict[str, list[Any]] = self._load()
        self._dirty = False

    def _load(self) -> dict[str, list[Any]]:
        if self.path is None:
            return {}
        raw, _, self.notice = read_cache(self.path, "secrets cache")
        try:
            data = orjson.loads(raw) if raw is not None else {}
        except orjson.JSONDecodeError:
            return {}
        if not isinstance(data, dict) or data.get("meta") != _meta():
            return {}
        files = data.get("files")
        return files if isinstance(files, dict) else {}

    def cached(self, path: str, st: os.stat_result) -> Counter[str] | None:
        """The kinds found when the file last had this stat (None: not known)."""
        record = self._record(path)
        if record is None or record[:4] != file_stamp(st):
            return None
        return Counter(record[4])

    def _record(self, path: str) -> list[Any] | None:
        record = self._files.get(path)
        valid = isinstance(record, list) and len(record) == 8 and isinstance(record[4], dict)
        return record if valid else None

    def _remember(self, path: str, st: os.stat_result, kinds: Counter[str], found: Any) -> None:
        mark = _mark(path, found.scanned)
        self._files[path] = [*file_stamp(st), dict(kinds), found.scanned, found.lines, mark]
        self._dirty = True

    def scan(self, path: str) -> SessionSecrets | None:
        """A full scan of a regular file, remembered (None: not a regular file, unreadable)."""
        st = regular_stat(path)
        if st is None:
            return None
        try:
            found = scan_session(path)
        except PituiError:
            return None
        self._remember(path, st, found.kinds, found)
        return found

    def _kinds(self, path: str) -> Counter[str]:
        """Cached, or read: only the lines appended since the last read when the file grew
        and what was read is still there (a session file only grows), else the whole file."""
        st = regular_stat(path)
        if st is None:
            return Counter()
        kinds = self.cached(path, st)
        if kinds is not None:
            return kinds
        record = self._record(path)
        if record is not None and _appended(record, st) and _mark(path, record[5]) == record[7]:
            try:
                found = scan_session(path, record[5], record[6] + 1)
            except PituiError:
                return Counter()
            kinds = Counter(record[4]) + found.kinds
            self._remember(path, st, kinds, found)
            return kinds
        whole = self.scan(path)
        return whole.kinds if whole is not None else Counter()

    def kinds_of(
        self, paths: Iterable[str], stop: Callable[[], bool] = lambda: False
    ) -> dict[str, Counter[str]]:
        """The files among `paths` that hold credentials, with their kinds. `stop()` true:
        return what is known so far."""
        out: dict[str, Counter[str]] = {}
        for path in paths:
            if stop():
                break
            kinds = self._kinds(path)
            if kinds:
                out[path] = kinds
        return out

    def close(self) -> None:
        """Write the cache if it changed."""
        if not self._dirty or self.path is None:
            return
        self._dirty = False
        value = {"meta": _meta(), "files": self._files}
        self.notice = write_cache(self.path, value, "secrets cache") or self.notice


def _appended(record: list[Any], st: os.stat_result) -> bool:
    """Whether the file may have changed only by an append since `record`: the same inode,
    grown (the same size with another mtime or ctime is an edit in place)."""
    return st.st_ino == record[2] and st.st_size > record[0]


def _mark(path: str, offset: int) -> str:
    """A fingerprint of what was read up to `offset`: its first and last bytes (a file
    rewritten, not appended to, changes them)."""
    digest = hashlib.blake2b(digest_size=8)
    try:
        with open_regular_file(path) as fh:  # a FIFO swapped in meanwhile is not waited on
            digest.update(fh.read(min(offset, MARK_BYTES)))
            fh.seek(max(0, offset - MARK_BYTES))
            digest.update(fh.read(min(offset, MARK_BYTES)))
    except (OSError, PituiError):
        return ""
    return digest.hexdigest()
