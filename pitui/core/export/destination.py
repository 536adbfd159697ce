"""Where an export goes: a proposed file name, and writing without overwriting by surprise."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from pitui.core.errors import PituiError

NAME_LENGTH = 60
_UNSAFE = re.compile(r"[^\w\-. ]+")  # path separators, controls, punctuation shells mind


def safe_file_stem(text: str) -> str:
    """A file name stem from untrusted text: no separators, no control characters, no
    leading dot, at most 60 characters ("session" if nothing is left)."""
    stem = _UNSAFE.sub("-", " ".join(text.split()))
    stem = re.sub(r"-{2,}", "-", stem.replace(" ", "-")).strip("-.")
    return stem[:NAME_LENGTH].rstrip("-.") or "session"


def proposed_name(title: str, extension: str, context: bool = False) -> str:
    """A file name from the session's title; a title naming a file of the export's own kind
    ("Fix the typos in notes.md") gives "Fix-the-typos-in-notes.md", not "...notes.md.md"."""
    stem = safe_file_stem(title)
    if not context and stem.lower().endswith(extension) and len(stem) > len(extension):
        stem = stem[: -len(extension)].rstrip("-.") or stem
    return stem + ("-context" if context else "") + extension


def destination(target: str | os.PathLike[str], name: str) -> Path:
    """`target` itself, or `target/name` when it is a folder (or ends with a separator)."""
    text = os.fspath(target)
    path = Path(text)
    if text.endswith(("/", os.sep)) or path.is_dir():
        if not path.is_dir():
            raise PituiError(f"{text} is not a folder")
        return path / name
    return path


def write_export(
    path: Path, parts: Iterable[str], *, force: bool = False, source: Path | None = None
) -> Path:
    """Write the parts of an export to `path`: a new file, or with `force` replace a regular
    file whole (written to a temporary file renamed over it). Never the session itself."""
    if path.exists() or path.is_symlink():
        if not force:
            raise PituiError(f"{path} exists; use --force to replace it")
        if not path.is_file() or path.is_symlink():
            raise PituiError(f"{path} is not a regular file; not replacing it")
        if source is not None and path.resolve() == source.resolve():
            raise PituiError(f"{path} is the session being exported; not replacing it")
        _replace(path, parts)
        return path
    try:
        with open(path, "x", encoding="utf-8", newline="") as out:
            out.writelines(parts)
    except FileExistsError as error:
        raise PituiError(f"{path} exists; use --force to replace it") from error
    except OSError as error:
        raise PituiError(f"cannot write {path}: {error.strerror or error}") from error
    return path


def _replace(path: Path, parts: Iterable[str]) -> None:
    fd, temp = tempfile.mkstemp(prefix=".pitui-export-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.writelines(parts)
        os.replace(temp, path)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise PituiError(f"cannot write {path}: {error.strerror or error}") from error
