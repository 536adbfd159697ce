"""The answer cache of `pitui list` and `pitui stats`: a command's whole output, kept with
the fingerprint of everything it was computed from, and printed again while that holds.

A warm `pitui list --all` over 1,000 sessions spends most of its time importing and
rebuilding what it printed last time, when no file changed. Here the answer is found by its
key (the command, its options, the cwd, the environment that picks the folders, the time
zone, pitui's own code) and is good while every dependency it recorded is as it was: each
file's stat (size, mtime, ctime, inode, mode, or why it could not be stat'ed), each
folder's entries (names and kinds), each session folder's `.jsonl` files and their stats.
A change to any of them (a session grown, added or removed, a pin, a settings file)
misses, and the command computes the answer again.

The dependencies are taken before the command reads anything, so a file that changes while
it runs changes its stat after the recorded one: the next run misses. As the catalog index,
this trusts size + mtime + ctime + inode to say that a file's bytes are unchanged.

Imports only the standard library's lightest modules (those `argparse` has already
imported), `user_dirs`, `errors`, `open_by` (who holds the sessions open) and the session
layer's `source` (regular files only): a hit must cost less than the imports of the code that
computes an answer (see "Imports inside functions" in
docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import os
import sys
import time
from collections.abc import Callable

try:
    from _blake2 import blake2b  # hashlib itself loads OpenSSL first: several ms at startup
except ImportError:  # a Python built without it
    from hashlib import blake2b

from pitui.core.errors import PituiError
from pitui.core.live.open_by import OpenSessions, open_sessions
from pitui.core.regular_file import open_regular
from pitui.core.user_dirs import cache_folder

# A cache file: FORMAT, `SIZE COUNT\n`, SIZE bytes of `kind\0path` (`\0` between
# dependencies), COUNT digests of 32 bytes, then the answer (3: the kind in full, apart from
# its path; 2 glued a one-letter kind onto the path).
FORMAT = b"pitui-answer-3\n"
FOLDER = "answers"
KEEP = 16  # answers kept per cache folder (the oldest go first) ...
KEEP_BYTES = 64 * 1024 * 1024  # ... and at most this many bytes of them (the newest always)
_ENV_PREFIXES = ("PI_", "PITUI_", "XDG_")
_ENV_NAMES = ("HOME", "TZ", "APPDATA", "LOCALAPPDATA", "USERPROFILE")
_CODE_STAMP: list[str] = []


def _stat_text(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError as error:
        return f"!{error.errno}"
    return _stat_line(st)


def _stat_line(st: os.stat_result) -> str:
    return f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino} {st.st_mode}"


def _folder_text(path: str) -> str:
    try:
        with os.scandir(path) as entries:
            found = [f"{e.name}\0{_entry_type(e)}" for e in entries]
    except OSError as error:
        return f"!{error.errno}"
    found.sort()
    return "\0".join(found)


def _entry_type(entry: os.DirEntry[str]) -> str:
    try:
        return "l" if entry.is_symlink() else ("d" if entry.is_dir() else "f")
    except OSError:
        return "?"


def _sessions_text(path: str, stats: dict[str, os.stat_result] | None = None) -> str:
    """A folder's `.jsonl` files (as `discovery.jsonl_files` lists them) with their stats
    (added to `stats` by path, for the command to use instead of taking them again)."""
    try:
        names = [name for name in os.listdir(path) if name.endswith(".jsonl")]
    except OSError as error:
        return f"!{error.errno}"
    prefix = os.path.join(path, "")
    stat = os.stat
    try:
        found = [(name, stat(prefix + name)) for name in names]
    except OSError:  # rare: one by one, each error kept
        return repr([(name, _stat_text(prefix + name)) for name in names])
    if stats is not None:
        stats.update((prefix + name, st) for name, st in found)
    return repr(
        [(n, s.st_size, s.st_mtime_ns, s.st_ctime_ns, s.st_ino, s.st_mode) for n, s in found]
    )


class Kind(enum.Enum):
    """What of a path an answer depends on (the value is how the cache file names it)."""

    FILE = "file"  # its stat
    FOLDER = "folder"  # its entries (names and types)
    SESSIONS = "sessions"  # its `.jsonl` files and the stat of each
    HOLDERS = "holders"  # the other processes holding its sessions open (`list --json`)


MEASURES: dict[str, Callable[[str], str]] = {
    Kind.FILE.value: _stat_text,
    Kind.FOLDER.value: _folder_text,
    Kind.SESSIONS.value: _sessions_text,
}  # by value: a hit looks up every dependency it measures again


class Dependencies:
    """What an answer was computed from: files (by stat) and folders (by their entries),
    each measured when added (before the command reads it)."""

    def __init__(self) -> None:
        self.items: list[tuple[Kind, str, str]] = []  # (kind, path, measure)
        self.stats: dict[str, os.stat_result] = {}  # the session files' stats, by path

    def file(self, path: str) -> None:
        self.items.append((Kind.FILE, path, _stat_text(path)))

    def folder(self, path: str) -> None:
        """A folder's entries (names and types)."""
        self.items.append((Kind.FOLDER, path, _folder_text(path)))

    def sessions(self, path: str) -> None:
        """A folder's `.jsonl` files and the stat of each (a missing folder has none)."""
        self.items.append((Kind.SESSIONS, path, _sessions_text(path, self.stats)))

    def holders(self, path: str, found: OpenSessions | None) -> None:
        """The processes (other than this one) that held sessions under the folder open, as
        `found` saw them when the answer was computed."""
        self.items.append((Kind.HOLDERS, path, _holders_text(path, found)))

    def stat(self, path: str) -> os.stat_result | None:
        """Stat a file the caller is about to rely on (None: it cannot be stat'ed)."""
        try:
            st = os.stat(path)
        except OSError as error:
            self.items.append((Kind.FILE, path, f"!{error.errno}"))
            return None
        self.stat_result(path, st)
        return st

    def stat_result(self, path: str, st: os.stat_result | None) -> None:
        """A file stat'ed by the caller when it read it (None: absent then, or unknown: as
        absent, which a file present later does not match)."""
        self.items.append((Kind.FILE, path, "!2" if st is None else _stat_line(st)))

    def kinds_and_paths(self) -> bytes:
        """`kind\0path` of each dependency, `\0` between them (a path has no NUL)."""
        fields = (f"{kind.value}\0{path}" for kind, path, _ in self.items)
        return "\0".join(fields).encode("utf-8", "surrogateescape")

    def digests(self, key: bytes) -> bytes:
        return b"".join(_digest(key, k.value, p, m) for k, p, m in self.items)


def _holders_text(folder: str, found: OpenSessions | None) -> str:
    return "?" if found is None else repr(found.under(folder))


def _digest(key: bytes, kind: str, path: str, measure: str) -> bytes:
    """One dependency as measured, for this key (32 bytes: hex)."""
    h = blake2b(key, digest_size=16)
    h.update(f"\0{kind}\0{path}\0{measure}".encode("utf-8", "surrogateescape"))
    return h.hexdigest().encode()


def key_of(command: str, options: dict[str, object], cwd: str) -> bytes:
    """What, beside its dependencies, decides a command's answer."""
    env = sorted(
        (k, v) for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES) or k in _ENV_NAMES
    )
    zone = (time.tzname, time.timezone, time.altzone)
    parts = (FORMAT, command, sorted(options.items()), cwd, env, zone, sys.version, _code())
    return repr(parts).encode("utf-8", "surrogateescape")


def _code() -> str:
    """pitui's own source files (size and mtime each): an edited or upgraded pitui may
    answer differently."""
    if not _CODE_STAMP:
        found: list[str] = []
        _walk(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), found)
        found.sort()
        _CODE_STAMP.append(blake2b("\0".join(found).encode(errors="replace")).hexdigest())
    return _CODE_STAMP[0]


def _walk(folder: str, found: list[str]) -> None:
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".py"):
                st = entry.stat()
                found.append(f"{entry.path} {st.st_size} {st.st_mtime_ns}")
            elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                _walk(entry.path, found)


def _read_regular(path: str) -> bytes | None:
    """The file's bytes if it is a regular file (None: absent, unreadable, or not a regular
    file: a FIFO put in its place is never read)."""
    try:
        fd = open_regular(path)
    except (OSError, PituiError):
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            return fh.read()
        except OSError:
            return None


class AnswerCache:
    """The answer kept for one key in a cache folder (None: keep nothing, as `--no-cache`)."""

    def __init__(self, cache_folder: str | None, key: bytes) -> None:
        self.key = blake2b(key, digest_size=16).digest()
        self._open: list[OpenSessions | None] = []
        self.path = None
        if cache_folder is not None:
            self.path = os.path.join(cache_folder, FOLDER, self.key.hex())

    def open_sessions(self) -> OpenSessions | None:
        """Which sessions other processes hold open: read once, by the first to ask (a kept
        answer checking its `holders`, or the listing computing `openBy`)."""
        if not self._open:
            self._open.append(open_sessions(exclude=os.getpid()))
        return self._open[0]

    def get(self) -> str | None:
        """The kept answer, if every dependency it recorded is unchanged."""
        if self.path is None:
            return None
        data = _read_regular(self.path)
        if data is None:
            return None
        try:
            return self._valid(data)
        except (ValueError, KeyError, IndexError):  # damaged: computed again, then replaced
            return None

    def _valid(self, data: bytes) -> str | None:
        """The answer, measuring its dependencies in the order kept and stopping at the
        first that changed (a miss measures, on average, half of them)."""
        if not data.startswith(FORMAT):
            return None
        sizes, rest = data[len(FORMAT) :].split(b"\n", 1)
        size, count = map(int, sizes.split())
        fields = rest[:size].decode("utf-8", "surrogateescape").split("\0") if size else []
        if len(fields) != 2 * count:
            return None
        digests = rest[size : size + 32 * count]
        for i in range(count):
            kind, path = fields[2 * i], fields[2 * i + 1]
            if kind == Kind.HOLDERS.value:
                measure = _holders_text(path, self.open_sessions())
            else:
                measure = MEASURES[kind](path)
            if _digest(self.key, kind, path, measure) != digests[32 * i : 32 * i + 32]:
                return None
        return rest[size + 32 * count :].decode("utf-8", "surrogatepass")

    def put(self, dependencies: Dependencies, answer: str) -> None:
        """Keep `answer` (never fails: an answer that cannot be kept is computed again)."""
        if self.path is None:
            return
        paths = dependencies.kinds_and_paths()
        body = answer.encode("utf-8", "surrogatepass")
        count = len(dependencies.items)
        digests = dependencies.digests(self.key)
        data = b"%s%d %d\n%s%s%s" % (FORMAT, len(paths), count, paths, digests, body)
        folder = os.path.dirname(self.path)
        temp = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(folder, exist_ok=True)
            with open(temp, "wb") as fh:
                fh.write(data)
            os.replace(temp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            return
        _trim(folder)


def _trim(folder: str) -> None:
    """Keep the `KEEP` newest answers, within `KEEP_BYTES` (a listing of 10,000 sessions as
    JSON is ~10 MB)."""
    with contextlib.suppress(OSError):
        with os.scandir(folder) as entries:
            found = [(e.stat().st_mtime_ns, e.stat().st_size, e.path) for e in entries]
        found.sort(reverse=True)
        total = 0
        for count, (_, size, path) in enumerate(found):
            total += size
            if count >= KEEP or (count and total > KEEP_BYTES):
                with contextlib.suppress(OSError):
                    os.unlink(path)


def answer_cache_for(command: str, args: argparse.Namespace) -> AnswerCache | None:
    """The cache of the command's answer for these options here (None with `--no-cache`:
    nothing is printed again or kept)."""
    if args.no_cache:
        return None
    return AnswerCache(cache_folder(), key_of(command, vars(args), os.getcwd()))


def print_kept_answer(cache: AnswerCache | None) -> bool:
    """Print the kept answer if nothing it was computed from changed (True: printed)."""
    kept = cache.get() if cache is not None else None
    if kept is None:
        return False
    sys.stdout.write(kept)
    return True
