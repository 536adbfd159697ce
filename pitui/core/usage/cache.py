"""The usage cache: per session file, its header facts and usage rows, in one JSON file.

Its own file (`usage-cache.json`) next to the catalog's index, so neither depends on the
other's schema. One file read whole, not SQLite: a warm `pitui stats` over 10,000 sessions
reads it in one go (orjson), where SQLite's row-by-row reads cost several times as much.
A file's rows are kept while its path, size, mtime, inode and ctime are unchanged, and read
again otherwise (the ctime: an edit in place may keep the size and set the mtime back); days
are local calendar days, so a change of time zone empties it. Updates are written to a
temporary file renamed into place (two pitui writing at once: the last one wins, the other's
reads are done again next time). It is only a cache: a damaged or outdated one is rebuilt
from the session files.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeAlias

import orjson

from pitui.core.cache_file import file_stamp, read_cache, write_cache_stat
from pitui.core.errors import PituiError

if TYPE_CHECKING:
    from pitui.core.usage.extract import FileUsage

# a file's usage as read: None, not a session; False, gone or unreadable
Read: TypeAlias = "FileUsage | Literal[False] | None"

SCHEMA_VERSION = "pitui-usage-2"
PARALLEL_READS = (
    64  # changed files read by worker processes from this many (a pool's start: ~0.3 s)
)
FILE_NAME = "usage-cache.json"


class SessionInfo(NamedTuple):
    """A session file's header facts (what grouping and lineage need; a tuple: a warm
    `pitui stats` makes 10,000 of them)."""

    path: str
    session_id: str
    cwd: str
    parent: str | None
    created_ms: int | None


# (path, day, provider, model, copy_ms, messages, input, output, cache_read, cache_write, cost):
# plain tuples (a million at 10,000 sessions), read by these positions
Row = tuple[str, str, str, str, int | None, int, float, float, float, float, float]
PATH: Final = 0
DAY: Final = 1
PROVIDER: Final = 2
MODEL: Final = 3
COPY_MS: Final = 4
MESSAGES: Final = 5
INPUT: Final = 6
OUTPUT: Final = 7
CACHE_READ: Final = 8
CACHE_WRITE: Final = 9
COST: Final = 10
# per file: [size, mtime_ns, inode, ctime_ns, session facts [id, cwd, parent, created_ms] or
# None, rows]
Record = list[Any]


class UsageCache:
    """Usage rows of session files, refreshed only for files that changed."""

    def __init__(self, folder: Path | None) -> None:
        self.notice: str | None = None
        self.path = None if folder is None else folder / FILE_NAME
        # the stat of the cache file read (or written) as it was then: what the lineage below
        # comes from (None: no file)
        self.file_stat: os.stat_result | None = None
        data = self._load()
        files, lineage = data.get("files"), data.get("lineage")
        self._files: dict[str, Record] = files if isinstance(files, dict) else {}
        # every fork ever read: [parent, created_ms], kept after the file is gone so that a
        # fork's copies can be traced past a missing parent (see `groups`)
        self.lineage: dict[str, list[Any]] = lineage if isinstance(lineage, dict) else {}
        self._dirty = False

    def _load(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        raw, self.file_stat, self.notice = read_cache(self.path, "usage cache")
        try:
            data = orjson.loads(raw) if raw is not None else {}
        except orjson.JSONDecodeError:
            return {}  # absent or damaged: rebuilt
        if not isinstance(data, dict) or data.get("meta") != _meta():
            return {}
        return data

    def close(self) -> None:
        """Write the cache if it changed (never fails: a cache that cannot be kept is not)."""
        if not self._dirty or self.path is None:
            return
        self._dirty = False
        value = {"meta": _meta(), "files": self._files, "lineage": self.lineage}
        notice, self.file_stat = write_cache_stat(self.path, value, "usage cache")
        self.notice = notice or self.notice

    def refresh(
        self,
        paths: Iterable[str],
        whole_folders: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[dict[str, SessionInfo], list[Row]]:
        """The sessions among `paths` and their rows, reading only files that changed.

        `whole_folders`: `paths` lists every file of their folders, so a cached file of one of
        those folders that is not among them is gone, and leaves the cache. `progress(done,
        total)`: called before each batch of files read (files done of all `paths`; never when
        warm)."""
        paths = list(paths)
        if whole_folders:
            self._forget_unlisted(paths)
        self._read_changed(self._changed(paths), len(paths), progress)
        files = self._files
        infos: dict[str, SessionInfo] = {}
        rows: list[Row] = []
        make_info = SessionInfo._make
        for path in paths:
            record = files.get(path)
            if record is None or record[4] is None:
                continue
            infos[path] = make_info((path, *record[4]))
            rows += [(path, *row) for row in record[5]]
        return infos, rows

    def _changed(self, paths: list[str]) -> list[tuple[str, os.stat_result]]:
        """The regular files among `paths` not cached as they are now (those gone or no
        longer regular leave the cache)."""
        files = self._files
        changed: list[tuple[str, os.stat_result]] = []
        stat_of, is_regular = os.stat, stat.S_ISREG
        for path in paths:
            try:
                st = stat_of(path)
            except OSError:
                st = None
            if st is None or not is_regular(st.st_mode):
                self._dirty |= files.pop(path, None) is not None
                continue
            record = files.get(path)
            if record is None or record[:4] != file_stamp(st):
                changed.append((path, st))
        return changed

    def _read_changed(
        self,
        changed: list[tuple[str, os.stat_result]],
        total: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """Read the changed files, on every core when there are many (a first `pitui stats`
        of 10,000 sessions read 2.1 GB on one)."""
        if not changed:
            return
        self._dirty = True
        stats = dict(changed)
        done = total - len(changed)
        for chunk, usages in _usages_of([path for path, _ in changed]):
            if progress is not None:
                progress(done, total)
            for path, usage in zip(chunk, usages, strict=True):
                self._keep(path, stats[path], usage)
            done += len(chunk)

    def _forget_unlisted(self, paths: list[str]) -> None:
        listed = set(paths)
        folders = {p.rpartition(os.sep)[0] for p in paths}
        gone = [p for p in self._files if p not in listed and p.rpartition(os.sep)[0] in folders]
        for path in gone:
            del self._files[path]
        self._dirty |= bool(gone)

    def _keep(self, path: str, st: os.stat_result, usage: Read) -> None:
        """Cache what `usages_of` read (False: unreadable, left out)."""
        if usage is False:
            self._files.pop(path, None)
            return
        head: Record = file_stamp(st)
        if usage is None:
            self._files[path] = [*head, None, []]
            return
        facts = [usage.session_id, usage.cwd, usage.parent, usage.created_ms]
        if usage.parent:  # a gone session without a parent ends a chain anyway
            self.lineage[path] = [usage.parent, usage.created_ms]
        rows = [[*key, None, *values] for key, values in usage.buckets.items()]
        rows += [[c.day, c.provider, c.model, c.copy_ms, *c.values] for c in usage.copies]
        self._files[path] = [*head, facts, rows]


def _usages_of(paths: list[str]) -> Iterator[tuple[list[str], list[Read]]]:
    """Each chunk of `paths` with what `usages_or_none` read, on every core when there are
    `PARALLEL_READS` or more (in no particular order)."""
    if len(paths) < PARALLEL_READS:
        yield paths, usages_or_none(paths)
        return
    # deferred: the worker processes, ~45 ms off a `pitui stats` that reads few files
    from pitui.core.catalog.scan.workers import Workers

    workers = Workers()
    try:
        yield from workers.map_chunks(usages_or_none, paths)
    finally:
        workers.shutdown()


def usages_or_none(paths: list[str]) -> list[Read]:
    """Each file's usage; None: not a session; False: gone or unreadable (a worker's task,
    so module-level)."""
    # deferred: the usage reader, ~5-8 ms, only for a changed file
    from pitui.core.usage.extract import read_usage

    found: list[Read] = []
    for path in paths:
        try:
            found.append(read_usage(path))
        except (OSError, PituiError):  # gone, unreadable, no longer a regular file
            found.append(False)
    return found


def _meta() -> list[str]:
    zone = f"{time.tzname}|{time.timezone}|{time.altzone}|{os.environ.get('TZ', '')}"
    return [SCHEMA_VERSION, zone]
