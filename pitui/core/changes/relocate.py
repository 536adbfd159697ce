"""Sessions following their project: a folder moved from OLD to NEW takes its sessions along.

Every session whose header cwd is OLD or a folder under it goes to the session folder Pi uses
for the matching folder under NEW (Pi's `--<cwd>--` naming; in a custom session dir, the
same folder, since Pi filters it by the header's cwd). Only the header's `cwd` value is
rewritten, and a fork's `parentSession` when it names a session the same move took (in this
run, parents first, or in an earlier run of it: `NewParents`), so that the fork still names
its parent: every other byte of the file is kept, so moving back restores it byte for byte
(for a header Pi wrote; another spelling of the old value comes back as JSON.stringify's).

One move: the file is read through a descriptor held to the end, the new bytes are written
whole to a temporary file in the target folder and linked into place (never over a file),
read back and compared; the original is then checked unchanged (inode, size, mtime, as
`move_file` does), set aside under a hidden name in its folder (so a writer that opens the
path from now on cannot write into a file about to go), checked again through the held
descriptor, and only then unlinked. A line appended before the original was set aside makes
the move start again (a few times, then it is refused with the original where it was); a
writer that opened the path after it was set aside makes a new file there, which is
reported, never removed: its lines are a continuation of the moved session, and moving
again (`left_behind`, `continuation.rejoin`) appends them to it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from pitui.core.catalog.scan import discovery
from pitui.core.changes.continuation import Continuation, continuation_of
from pitui.core.changes.exchange import exchange
from pitui.core.changes.file_messages import os_reason, shown
from pitui.core.changes.file_writes import sync_folder
from pitui.core.changes.first_line import first_entry
from pitui.core.changes.move_file import (
    TAKEN_MARK,
    TargetExists,
    check_regular_file,
    rename_never_over,
)
from pitui.core.changes.new_file import write_whole
from pitui.core.changes.removal_guard import RemovalGuard
from pitui.core.changes.stale_temporaries import temporary_name
from pitui.core.errors import PituiError, UsageError
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsonline import LineError, dumps, js_integer, parse_line
from pitui.core.regular_file import open_regular

ATTEMPTS = 3  # a file appended to this many times while it moves is left for later
CHUNK = 1 << 20
_JSON_SPACE = " \t\n\r"


@dataclass(frozen=True)
class Relocation:
    """One session to move: from `source` to `target`, its header's cwd to `new_cwd`; once
    moved, `parent` is its header's `parentSession` (old value, new value) if it changed."""

    source: Path
    target: Path
    old_cwd: str
    new_cwd: str
    parent: tuple[str, str] | None = None

    @property
    def in_place(self) -> bool:
        return self.source == self.target


@dataclass(frozen=True)
class Moved:
    """A session moved; `note` says what else happened (a writer recreated the old path);
    `parent`: its header's `parentSession` (old value, new value) if it was rewritten."""

    source: Path
    target: Path
    note: str | None = None
    parent: tuple[str, str] | None = None


NewParent = Callable[[str], str | None]  # a parentSession's new value (None: unchanged)


class Changed(Exception):
    """The original changed while it was moved (nothing was lost; try again)."""


# --------------------------------------------------------------------------- what moves


def check_folders(old: str, new: str) -> tuple[str, str]:
    """OLD and NEW resolved as Pi resolves a cwd; refused when they overlap, or when NEW is
    there and is not a folder (a file or a device is never a project's folder; NEW need
    not exist yet)."""
    for value in (old, new):
        if not value or "\0" in value:
            raise UsageError(f"not a folder path: {shown(repr(value))}")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(f"{shown(value)}: not UTF-8, which a session's cwd must be") from None
    old_abs, new_abs = os.path.abspath(old), os.path.abspath(new)
    if old_abs == "/" or new_abs == "/":
        raise UsageError("cannot move sessions from or to the root folder")
    if old_abs == new_abs:
        raise UsageError(f"{shown(old_abs)} and {shown(new_abs)} are the same folder")
    if _under(new_abs, old_abs) or _under(old_abs, new_abs):
        raise UsageError(f"{shown(old_abs)} and {shown(new_abs)} are inside one another")
    if os.path.lexists(new_abs) and not os.path.isdir(new_abs):
        raise UsageError(f"{shown(new_abs)} is not a folder")
    return old_abs, new_abs


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def moved_cwd(cwd: str, old: str, new: str) -> str | None:
    """The cwd a session of `cwd` gets when OLD becomes NEW (None: it is not under OLD)."""
    if not cwd:
        return None
    resolved = os.path.abspath(cwd)
    if not _under(resolved, old):
        return None
    return new + resolved[len(old) :]


def plan(
    sessions: Iterable[tuple[str, str]],
    old: str,
    new: str,
    root: Path,
    custom: Path | None = None,
) -> list[Relocation]:
    """The moves of the `(path, header cwd)` sessions under OLD (both resolved): to NEW's
    matching folder in the sessions `root`, or in place in the custom session dir."""
    found = []
    for path, cwd in sessions:
        target_cwd = moved_cwd(cwd, old, new)
        if target_cwd is None:
            continue
        source = Path(path)
        if custom is not None and source.parent == custom:
            target = source
        else:
            target = discovery.project_dir(root, target_cwd) / source.name
        found.append(Relocation(source, target, cwd, target_cwd))
    return sorted(found, key=lambda r: str(r.source))


def left_behind(old: str, moved: Iterable[Path], root: Path) -> list[Continuation]:
    """The continuations in OLD's session folders (and its subfolders'): lines a pi still
    running there wrote after its session moved (Pi appends by the path it started with),
    each continuing one of the `moved` sessions (now under NEW, same file name)."""
    by_name = {path.name: path for path in moved}
    stem = discovery.project_folder_name(old)[:-2]
    found = []
    for folder in discovery.list_folders(root):
        if not os.path.basename(folder).startswith(stem):
            continue
        for name in sorted(_names(folder) & by_name.keys()):
            candidate = Path(folder) / name
            if candidate != by_name[name]:
                continued = continuation_of(candidate, by_name[name])
                if continued is not None:
                    found.append(continued)
    return found


def _names(folder: str) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()


# --------------------------------------------------------------------------- forks


def moved_earlier(
    sessions: Iterable[tuple[str, str]],
    old: str,
    new: str,
    root: Path,
    custom: Path | None = None,
) -> list[tuple[Path, Path]]:
    """(the path under OLD, the path now) of the `(path, header cwd)` sessions under NEW: where
    an earlier run of this move took them from (a fork it skipped then names that path)."""
    return [(m.target, m.source) for m in plan(sessions, new, old, root, custom) if not m.in_place]


class NewParents:
    """Where a fork's parent went: a `parentSession` naming a session this move took (in this
    run, `add`), or, once nothing is at that path any more, one an earlier run of it took
    (`earlier`, from `moved_earlier`), is that session's new path. Paths are compared with
    their folders resolved (a path through a link names the same file)."""

    def __init__(self, earlier: Iterable[tuple[Path, Path]] = ()) -> None:
        self._now: dict[str, str] = {}
        self._earlier = {path_key(str(was)): str(now) for was, now in earlier}

    def add(self, key: str, target: Path) -> None:
        """The session whose `path_key` was `key` (taken before it moved) is now `target`."""
        self._now[key] = str(target)

    def __call__(self, parent: str) -> str | None:
        if not os.path.isabs(parent):
            return None  # Pi writes an absolute path; another is not known to name a file
        key = path_key(parent)
        found = self._now.get(key)
        if found is None and key in self._earlier and not os.path.lexists(parent):
            found = self._earlier[key]
        return found if found != parent else None


def path_key(path: str) -> str:
    """`path` normalised, its folder's links resolved (the file itself may be gone)."""
    folder, name = os.path.split(os.path.normpath(path))
    return os.path.join(os.path.realpath(folder), name)


def parents_first(moves: list[Relocation]) -> list[Relocation]:
    """`moves` in their order, except that a session goes before the forks of it that move
    too (whose header names it as `parentSession`): a fork then learns its parent's new path."""
    index = {path_key(str(m.source)): i for i, m in enumerate(moves)}
    parent_of: dict[int, int] = {}
    for i, move in enumerate(moves):
        parent = _header_parent(move.source)
        if parent is not None and os.path.isabs(parent):
            j = index.get(path_key(parent))
            if j is not None and j != i:
                parent_of[i] = j
    ordered: list[Relocation] = []
    seen: set[int] = set()
    for i in range(len(moves)):
        chain = []
        at: int | None = i
        while at is not None and at not in seen:  # `seen` ends a parentSession cycle too
            seen.add(at)
            chain.append(at)
            at = parent_of.get(at)
        ordered.extend(moves[k] for k in reversed(chain))
    return ordered


def _header_parent(path: Path) -> str | None:
    entry = first_entry(path)
    if entry is None or entry.get("type") != EntryType.SESSION:
        return None
    parent = entry.get("parentSession")
    return parent if isinstance(parent, str) else None


Outcome = tuple[Relocation, str]


def move_all(
    moves: list[Relocation],
    *,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    earlier: Iterable[tuple[Path, Path]] = (),
) -> tuple[list[Relocation], list[Outcome], list[Outcome], list[str]]:
    """Move each session, parents before their forks: (moved, with the `parent` each fork's
    header now names, skipped with why, failed with why, notes). One another process may be
    writing (`RemovalGuard`; a pi in the moved folder has its new path as its cwd) is skipped
    unless `force`, as is one whose target exists. `earlier`: `moved_earlier`, for a fork
    whose parent an earlier run of this move took. `progress(done, total)`: before each
    session."""
    moved: list[Relocation] = []
    skipped: list[Outcome] = []
    failed: list[Outcome] = []
    notes: list[str] = []
    guard = RemovalGuard()
    parents = NewParents(earlier)
    for count, move in enumerate(parents_first(moves)):
        if progress is not None:
            progress(count, len(moves))
        key = path_key(str(move.source))
        try:
            if (why := _held(move, guard, force)) is not None:
                skipped.append((move, why))
                continue
            done = relocate(move, parents)
        except TargetExists as exists:
            skipped.append((move, str(exists)))
        except PituiError as error:
            failed.append((move, str(error)))
        else:
            parents.add(key, done.target)
            moved.append(replace(move, parent=done.parent))
            if done.note:
                notes.append(done.note)
    return moved, skipped, failed, notes


def skipped_now(moves: list[Relocation], *, force: bool = False) -> list[Outcome]:
    """The moves `move_all` would skip if run now, and why: what a dry run says."""
    guard = RemovalGuard()
    skipped = []
    for move in moves:
        why = _held(move, guard, force)
        if why is None and not move.in_place and os.path.lexists(move.target):
            why = f"{shown(move.target)} exists: nothing would be moved over it"
        if why is not None:
            skipped.append((move, why))
    return skipped


def _held(move: Relocation, guard: RemovalGuard, force: bool) -> str | None:
    """Why another process may be writing the session (None: no sign, or `force`)."""
    warning = None if force else guard.warning(move.source, also_cwds=(move.new_cwd,))
    return None if warning is None else f"{warning} (--force to move it anyway)"


# --------------------------------------------------------------------------- the header


def with_new_cwd(data: bytes, new_cwd: str, new_parent: NewParent | None = None) -> bytes:
    """`data` with only its header's `cwd` value replaced by `new_cwd` (as JSON.stringify
    writes it), and its `parentSession` by what `new_parent` gives for it (if anything);
    every other byte kept."""
    return _rewritten(data, new_cwd, new_parent)[0]


def _rewritten(
    data: bytes, new_cwd: str, new_parent: NewParent | None
) -> tuple[bytes, tuple[str, str] | None]:
    """`with_new_cwd`, and the `parentSession` (old value, new value) if it was replaced."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end]
        body = line[:-1] if line.endswith(b"\r") else line
        if body.strip(b" \t\r\n\x0b\x0c"):
            try:
                value = parse_line(body)
            except LineError:
                start = end + 1
                continue
            if not (isinstance(value, dict) and value.get("type") == EntryType.SESSION):
                raise PituiError("its first line is not a session header")
            if not isinstance(value.get("cwd"), str):
                raise PituiError("its header has no cwd")
            values = {"cwd": new_cwd}
            parent = value.get("parentSession")
            changed = None
            now = new_parent(parent) if new_parent and isinstance(parent, str) else None
            if now is not None:
                values["parentSession"] = now
                changed = (parent, now)
            header = _replace_values(body, values)
            return data[:start] + header + data[start + len(body) :], changed
        start = end + 1
    raise PituiError("it has no session header")


def _replace_values(line: bytes, values: dict[str, str]) -> bytes:
    """The header line with the (last, as JSON.parse keeps) top-level value of each key of
    `values` replaced (`cwd` is always there)."""
    text = line.decode("utf-8", "surrogateescape")
    decoder = json.JSONDecoder(parse_int=js_integer)  # never int() of 4,300+ digits
    i = _skip(text, 0)
    if text[i : i + 1] != "{":
        raise PituiError("its header is not a JSON object")
    spans: dict[str, tuple[int, int]] = {}
    i = _skip(text, i + 1)
    while i < len(text) and text[i] != "}":
        if text[i] != '"':
            raise PituiError("its header cannot be read")
        key, i = json.decoder.scanstring(text, i + 1)
        i = _skip(text, i)
        if text[i : i + 1] != ":":
            raise PituiError("its header cannot be read")
        start = _skip(text, i + 1)
        try:
            _, i = decoder.raw_decode(text, start)
        except ValueError:
            raise PituiError("its header cannot be read") from None
        if key in values:
            spans[key] = (start, i)
        i = _skip(text, i)
        if text[i : i + 1] == ",":
            i = _skip(text, i + 1)
    if spans.keys() != values.keys():
        raise PituiError("its header has no cwd")
    for key, (begin, end) in sorted(spans.items(), key=lambda item: -item[1][0]):
        text = text[:begin] + dumps(values[key]) + text[end:]  # the last first: spans hold
    return text.encode("utf-8", "surrogateescape")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_SPACE:
        i += 1
    return i


# --------------------------------------------------------------------------- one move


def relocate(move: Relocation, new_parent: NewParent | None = None) -> Moved:
    """Move one session (see the module's docstring), its header's `parentSession` rewritten
    to what `new_parent` gives for it (if anything); raises `PituiError` saying why not, the
    original then where it was. A session another process writes is the caller's to refuse
    (`write_guard.activity_warning`)."""
    check_regular_file(move.source, "move")
    for _ in range(ATTEMPTS):
        try:
            return _attempt(move, new_parent)
        except Changed:
            continue
    raise PituiError(
        f"{shown(move.source)} kept changing while it was moved: it was left where it is"
    )


def _attempt(move: Relocation, new_parent: NewParent | None) -> Moved:
    try:
        fd = open_regular(move.source)
    except OSError as error:
        raise PituiError(f"cannot read {shown(move.source)}: {os_reason(error)}") from None
    try:
        before = os.fstat(fd)
        data = _read_all(fd)
        if len(data) != before.st_size:
            raise Changed
        try:
            content, parent = _rewritten(data, move.new_cwd, new_parent)
        except PituiError as error:
            raise PituiError(f"{shown(move.source)}: {error}; it was left where it is") from None
        if move.in_place:
            done = _rewrite_in_place(move, fd, before, content)
        else:
            done = _move_across(move, fd, before, content)
        return replace(done, parent=parent)
    finally:
        os.close(fd)


def _move_across(move: Relocation, fd: int, before: os.stat_result, content: bytes) -> Moved:
    source, target = move.source, move.target
    placed = _place(target, content, before)
    if not _unchanged_at(source, fd, before):
        _remove_ours(target, placed)
        raise Changed
    aside = _aside_name(source)
    try:
        rename_never_over(source, aside)
    except OSError as error:
        _remove_ours(target, placed)
        raise PituiError(_cannot(move, error)) from None
    if not _unchanged(os.fstat(fd), before):  # appended between the check and the rename
        _put_back(aside, source)
        _remove_ours(target, placed)
        raise Changed
    with contextlib.suppress(OSError):
        os.unlink(aside)
    sync_folder(source.parent)  # OLD's folder stays, even empty: a pi still running there
    note = None  # appends to a new file in it rather than failing
    if os.path.lexists(source):
        note = (
            f"a writer made {shown(source)} again after it moved: its lines are there, "
            "not in the moved session"
        )
    return Moved(source, target, note)


def _rewrite_in_place(move: Relocation, fd: int, before: os.stat_result, content: bytes) -> Moved:
    """A session in a custom session dir keeps its name: the new file is swapped with the
    old one in one step (`exchange`), and the old one, then under the temporary name, is
    removed once it is known unchanged."""
    source = move.source
    temporary = source.with_name(temporary_name(source.name, secrets.token_hex(4)))
    placed = _place(temporary, content, before)
    if not _unchanged_at(source, fd, before):
        _remove_ours(temporary, placed)
        raise Changed
    try:
        swapped = exchange(temporary, source)
    except OSError as error:
        _remove_ours(temporary, placed)
        raise PituiError(_cannot(move, error)) from None
    if not swapped:
        _remove_ours(temporary, placed)
        raise PituiError(
            f"cannot rewrite {shown(source)} in place here (the system cannot swap two "
            "files in one step): it was left as it is"
        )
    if not _unchanged(os.fstat(fd), before):  # appended between the check and the swap
        if _same_file(source, placed) and exchange(temporary, source):
            _remove_ours(temporary, placed)
            raise Changed
        raise PituiError(
            f"{shown(source)} was written while it was rewritten: the old lines are kept "
            f"in {shown(temporary)}"
        )
    with contextlib.suppress(OSError):
        os.unlink(temporary)
    sync_folder(source.parent)
    return Moved(source, source)


def _place(target: Path, content: bytes, before: os.stat_result) -> os.stat_result:
    """Write `content` whole as `target` (never over a file), with the original's times,
    read back and compared; returns its state."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PituiError(f"cannot create {shown(target.parent)}: {os_reason(error)}") from None
    try:
        write_whole([target], [content])
    except FileExistsError:
        raise TargetExists(f"{shown(target)} exists: nothing was moved over it") from None
    try:
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        placed = os.stat(target)
        same = _read_back(target) == content
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise PituiError(f"cannot check {shown(target)}: {os_reason(error)}") from None
    if not same:
        _remove_ours(target, placed)
        raise PituiError(f"{shown(target)} did not read back as written: nothing was moved")
    sync_folder(target.parent)
    return placed


def _read_all(fd: int) -> bytes:
    parts = []
    while chunk := os.read(fd, CHUNK):
        parts.append(chunk)
    return b"".join(parts)


def _read_back(path: Path) -> bytes:
    fd = open_regular(path)
    try:
        return _read_all(fd)
    finally:
        os.close(fd)


def _unchanged(now: os.stat_result, before: os.stat_result) -> bool:
    return (now.st_ino, now.st_size, now.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


def _unchanged_at(path: Path, fd: int, before: os.stat_result) -> bool:
    """The path still names the file read, and nothing was appended to it."""
    try:
        return _unchanged(os.stat(path), before) and _unchanged(os.fstat(fd), before)
    except OSError:
        return False


def _same_file(path: Path, placed: os.stat_result) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino, now.st_size) == (placed.st_dev, placed.st_ino, placed.st_size)


def _remove_ours(path: Path, placed: os.stat_result) -> None:
    """Remove the copy pitui wrote, unless something changed it since (then it stays)."""
    if _same_file(path, placed):
        with contextlib.suppress(OSError):
            os.unlink(path)


def _aside_name(source: Path) -> Path:
    """Not `temporary_name`: a file set aside may hold lines (when it cannot go back), and
    `stale_temporaries` removes old temporaries."""
    return source.with_name(f".{source.name}{TAKEN_MARK}{secrets.token_hex(4)}")


def _put_back(aside: Path, source: Path) -> None:
    try:
        rename_never_over(aside, source)
    except OSError as error:
        why = "a new file took its name" if error.errno == errno.EEXIST else os_reason(error)
        raise PituiError(
            f"{shown(source)} changed while it moved and cannot go back ({why}): "
            f"its lines are in {shown(aside)}"
        ) from None


def _cannot(move: Relocation, error: OSError) -> str:
    return (
        f"cannot move {shown(move.source)} to {shown(move.target)}: {os_reason(error)}; "
        "it was left where it is"
    )
