"""Moving one file into the freedesktop trash, leaving nothing half done.

send2trash finds the trash folder (`plat_other`: the home trash, or the volume's), but its
move writes the `.trashinfo` with a plain open (two programs can pick the same name), then
renames: a file another program moved meanwhile leaves an orphan `.trashinfo`, and a full
disk an empty one. Here the `.trashinfo` is created with O_EXCL (the spec's way to reserve
a name), written whole, and removed again whenever the file does not end up in the trash.
"""

from __future__ import annotations

import contextlib
import errno
import os
import os.path as op
import shutil
from collections.abc import Iterator
from types import ModuleType

from pitui.core.changes.file_messages import shown
from pitui.core.errors import PituiError

_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK)
_NAMES_TRIED = 10_000


class FileGone(PituiError):
    """The file left its place while pitui was moving it: another program moved or deleted
    it (another `pitui prune`, pi, a file manager)."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{shown(path)} was moved or deleted by another program meanwhile")


def _plat() -> ModuleType:
    """send2trash's freedesktop module (imported only where there is a freedesktop trash)."""
    # deferred: absent off POSIX: its absence is a one-line message
    from send2trash import plat_other

    return plat_other


def data_home() -> bytes:
    """`$XDG_DATA_HOME` when it is an absolute path, else `~/.local/share`: the spec ignores an
    empty or relative value (send2trash took an empty one for the current folder, and put
    the session in a `Trash` folder there, where no trash view finds it)."""
    value = os.fsencode(os.environ.get("XDG_DATA_HOME", ""))
    return value if op.isabs(value) else op.expanduser(b"~/.local/share")


def home_trash() -> bytes:
    return op.join(data_home(), b"Trash")


def send2trash(path: str) -> None:
    """Move the file `path` into its trash; OSError (or `FileGone`) if it is not there after,
    with no `.trashinfo` left behind for it."""
    source = os.fsencode(op.abspath(path))
    trash, top = _trash_of(source)
    try:
        _move(source, trash, top)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        # the trash is on another device: a copy into the home trash, as send2trash
        _move(source, home_trash(), data_home(), copy=True)


def _trash_of(source: bytes) -> tuple[bytes, bytes]:
    """(trash folder, the top folder its `Path=` is relative to): send2trash's choice, with
    the home trash where the spec puts it (`home_trash`)."""
    plat_other = _plat()
    try:
        device = plat_other.get_dev(source)
    except FileNotFoundError:
        raise FileGone(os.fsdecode(source)) from None
    if device == plat_other.get_dev(op.realpath(op.expanduser(b"~"))):
        return home_trash(), data_home()
    top = plat_other.find_mount_point(source)
    if plat_other.get_dev(top) != device:
        raise OSError(f"Couldn't find mount point for {os.fsdecode(source)}")
    return plat_other.find_ext_volume_trash(top), top


def _move(source: bytes, trash: bytes, top: bytes, *, copy: bool = False) -> None:
    files, info = op.join(trash, b"files"), op.join(trash, b"info")
    for folder in (files, info):
        os.makedirs(folder, 0o700, exist_ok=True)
    name, info_path = _reserve(op.basename(source), files, info)
    try:
        _write_info(info_path, _plat().info_for(source, top).encode())
        _place(source, op.join(files, name), copy)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(info_path)
        raise


def _reserve(file_name: bytes, files: bytes, info: bytes) -> tuple[bytes, bytes]:
    """A name free in both folders, its `.trashinfo` created empty (O_EXCL): ours alone."""
    for name in _candidates(file_name):
        if op.lexists(op.join(files, name)):
            continue
        info_path = op.join(info, name + b".trashinfo")
        try:
            os.close(os.open(info_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return name, info_path
    raise OSError(errno.EEXIST, "no free name in the trash", os.fsdecode(file_name))


def _candidates(file_name: bytes) -> Iterator[bytes]:
    """`s.jsonl`, `s 1.jsonl`, `s 2.jsonl`... (send2trash's names)."""
    base, extension = op.splitext(file_name)
    yield file_name
    for counter in range(1, _NAMES_TRIED):
        yield base + b" " + str(counter).encode() + extension


def _write_info(info_path: bytes, text: bytes) -> None:
    fd = os.open(info_path, os.O_WRONLY | os.O_TRUNC)
    try:
        view = memoryview(text)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _place(source: bytes, target: bytes, copy: bool) -> None:
    """Link (or copy) the file in, then take its old name away; a file that another program
    moved or deleted meanwhile is `FileGone`, and nothing of it stays in the trash."""
    try:
        if copy:
            _copy(source, target)
        else:
            os.link(source, target)
    except FileNotFoundError:
        raise FileGone(os.fsdecode(source)) from None
    except OSError as error:
        if copy or error.errno not in _NO_LINKS:
            raise
        _rename(source, target)
        return
    try:
        os.unlink(source)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(target)
        if isinstance(error, FileNotFoundError):  # another program trashed it first
            raise FileGone(os.fsdecode(source)) from None
        raise


def _copy(source: bytes, target: bytes) -> None:
    """A copy of `source` as the new file `target` (removed again if the copy fails)."""
    with open(source, "rb") as reader:
        try:
            with open(target, "xb") as writer:
                shutil.copyfileobj(reader, writer, 1 << 20)
                writer.flush()
                os.fsync(writer.fileno())
            shutil.copystat(source, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(target)
            raise


def _rename(source: bytes, target: bytes) -> None:
    """Where the file system has no hard links: a rename, after checking the name is free."""
    if op.lexists(target):
        raise FileExistsError(errno.EEXIST, "a file took its name in the trash", target)
    try:
        os.rename(source, target)
    except FileNotFoundError:
        raise FileGone(os.fsdecode(source)) from None
