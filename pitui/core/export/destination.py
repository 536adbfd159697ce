"""Where an export goes: a proposed file name, and writing without overwriting by surprise."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pitui.core.changes.file_messages import os_message, shown
from pitui.core.changes.new_file import write_whole
from pitui.core.errors import PituiError

if TYPE_CHECKING:
    from pitui.core.export.export import ExportResult
    from pitui.core.export.html_pages import PagedExport

NAME_LENGTH = 60
NUMBERED = 99  # names tried in a folder before giving up
_UNSAFE = re.compile(r"[^\w\-. ]+")  # path separators, controls, punctuation shells mind
_PART = re.compile(r"part-\d+\.html")


def safe_file_stem(text: str) -> str:
    """A file name stem from untrusted text: no separators, no control characters, no
    leading dot, at most 60 characters, a longer one cut between two words when it has a
    break in its second half ("session" if nothing is left)."""
    stem = _UNSAFE.sub("-", " ".join(text.split()))
    stem = re.sub(r"-{2,}", "-", stem.replace(" ", "-")).strip("-.")
    if len(stem) > NAME_LENGTH:
        cut = stem[: NAME_LENGTH + 1]
        between = cut.rfind("-")
        stem = cut[:between] if between > NAME_LENGTH // 2 else cut[:NAME_LENGTH]
    return stem.rstrip("-.") or "session"


def proposed_name(title: str, extension: str, context: bool = False) -> str:
    """A file name from the session's title; a title naming a file of the export's own kind
    ("Fix the typos in notes.md") gives "Fix-the-typos-in-notes.md", not "...notes.md.md"."""
    stem = safe_file_stem(title)
    if not context and stem.lower().endswith(extension) and len(stem) > len(extension):
        stem = stem[: -len(extension)].rstrip("-.") or stem
    return stem + ("-context" if context else "") + extension


def destination(target: str | os.PathLike[str], name: str) -> tuple[Path, bool]:
    """Where to write, and whether pitui chose the name: `target` itself, or `target/name`
    when it is a folder (or ends with a separator)."""
    text = os.fspath(target)
    path = Path(text)
    if text.endswith(("/", os.sep)) or _is_folder(path):
        if not _is_folder(path):
            if not os.path.lexists(path):  # `-o out/` names a folder to make first
                raise PituiError(f"{shown(text)} does not exist")
            raise PituiError(f"{shown(text)} is not a folder")
        return path / name, True
    return path, False


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise PituiError(os_message("cannot write", path, error)) from None


def write_export(
    path: Path,
    parts: Iterable[bytes],
    *,
    force: bool = False,
    source: Path | None = None,
    numbered: bool = False,
) -> Path:
    """Write the UTF-8 parts of an export to `path`, complete or not at all (a temporary file beside
    it, put in place when whole): a new file; with `numbered`, the first free name of
    `name-2.md`, `name-3.md`...; with `force`, over a regular file. Never the session itself."""
    existing = _checked(path, force, source, numbered)
    targets = [path, *_numbered(path)] if numbered and not force else [path]
    try:
        return write_whole(targets, parts, replace=existing is not None and force)
    except FileExistsError:
        raise PituiError(f"{shown(path)} exists; use --force to replace it") from None


def _checked(path: Path, force: bool, source: Path | None, numbered: bool) -> os.stat_result | None:
    """What is at `path`, if a file may be written there; else a PituiError saying why not."""
    existing = _existing(path)
    if existing is not None and force:
        if not stat.S_ISREG(existing.st_mode):
            raise PituiError(f"{shown(path)} is not a regular file; not replacing it")
        if source is not None and _same_file(existing, source):
            raise PituiError(f"{shown(path)} is the session being exported; not replacing it")
    if existing is not None and not force and not numbered:
        raise PituiError(f"{shown(path)} exists; use --force to replace it")
    return existing


def write_result(
    path: Path,
    result: ExportResult,
    *,
    force: bool = False,
    source: Path | None = None,
    numbered: bool = False,
) -> Path:
    """`write_export` of the result, or of its pages when it has some (`write_pages`)."""
    if result.paged is None:
        return write_export(path, result.parts, force=force, source=source, numbered=numbered)
    return write_pages(path, result.paged, force=force, source=source, numbered=numbered)


def write_pages(
    path: Path,
    paged: PagedExport,
    *,
    force: bool = False,
    source: Path | None = None,
    numbered: bool = False,
) -> Path:
    """A paged export: its parts in the folder beside `path` (written whole in a temporary
    folder, then put in place), then its index as `path`, as `write_export` writes a file.
    `numbered`: the first name whose file and folder are both free; `force`: over a folder
    of parts an export wrote (only `part-N.html` files), never over another."""
    targets = [path, *_numbered(path)] if numbered and not force else [path]
    for target in targets:
        folder = target.with_name(paged.folder_name(target.name))
        if force or (_existing(target) is None and _existing(folder) is None):
            break
    else:
        raise _in_the_way(path, path.with_name(paged.folder_name(path.name)))
    _checked(target, force, source, numbered=False)
    if _existing(folder) is not None and not (force and _parts_folder(folder)):
        if force:
            raise PituiError(f"{shown(folder)} is not a folder of export parts; not replacing it")
        raise PituiError(f"{shown(folder)} exists; use --force to replace it")
    _write_folder(folder, paged.part_pages(target.name))
    return write_export(target, paged.index(target.name), force=force, source=source)


def _in_the_way(path: Path, folder: Path) -> PituiError:
    """What keeps a paged export from `path` and its folder of parts, named."""
    if _existing(path) is not None:
        return PituiError(f"{shown(path)} exists; use --force to replace it")
    if not _parts_folder(folder):
        return PituiError(
            f"{shown(folder)} exists and is not a folder of export parts; choose another name"
        )
    return PituiError(f"{shown(folder)} exists; use --force to replace it")


def _parts_folder(folder: Path) -> bool:
    """Whether `folder` is a folder (not a link) of nothing but regular `part-N.html` files."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return False
        with os.scandir(folder) as files:
            return all(_PART.fullmatch(f.name) and f.is_file(follow_symlinks=False) for f in files)
    except OSError:
        return False


def _write_folder(folder: Path, pages: Iterator[tuple[str, Iterator[bytes]]]) -> None:
    """The pages (paths under `folder`'s parent) in a temporary folder, moved to `folder`
    when complete (the folder of parts there before moved aside, then removed)."""
    token = secrets.token_hex(4)
    temporary = folder.with_name(f".{folder.name}.{token}.tmp")
    old = folder.with_name(f".{folder.name}.{token}.old")
    try:
        os.mkdir(temporary)
    except OSError as error:
        raise PituiError(os_message("cannot write in", folder.parent, error)) from None
    try:
        for relative, parts in pages:
            write_whole([temporary / Path(relative).name], parts)
        if _existing(folder) is not None:
            os.rename(folder, old)
        try:
            os.rename(temporary, folder)
        except OSError:
            if _existing(old) is not None:
                os.rename(old, folder)  # the parts there before, back in place
            raise
    except OSError as error:
        raise PituiError(os_message("cannot write", folder, error)) from None
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def _existing(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise PituiError(os_message("cannot write", path, error)) from None


def _same_file(existing: os.stat_result, source: Path) -> bool:
    try:
        return os.path.samestat(existing, os.stat(source))
    except OSError:
        return False


def free_path(path: Path) -> Path:
    """`path`, or the first of `name-2.ext`... beside it that is free (as `-o DIR/` picks)."""
    return next((p for p in [path, *_numbered(path)] if not os.path.lexists(p)), path)


def _numbered(path: Path) -> list[Path]:
    """`name-2.ext` to `name-{NUMBERED}.ext`, beside `path`."""
    return [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, NUMBERED + 1)]
