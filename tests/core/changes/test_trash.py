"""Trash: into the freedesktop trash, never a permanent delete."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import send2trash.plat_other as plat_other

from pitui.core.changes import trash
from pitui.core.changes.trash import trash_session
from pitui.core.changes.write_guard import ConcurrentWriteWarning
from pitui.core.errors import PituiError


def _session(tmp_path: Path, *, age: float = 3600) -> Path:
    """A session file last written `age` seconds ago (a recent one may be pi's, writing)."""
    path = tmp_path / "s.jsonl"
    path.write_text('{"type":"session","id":"x","timestamp":"2025-01-01T00:00:00.000Z"}\n')
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_trash_moves_into_freedesktop_trash(tmp_path: Path, home_trash: Path) -> None:
    path = _session(tmp_path)
    content = path.read_bytes()
    trash_session(path)
    assert not path.exists()
    assert (home_trash / "files" / "s.jsonl").read_bytes() == content
    info = (home_trash / "info" / "s.jsonl.trashinfo").read_text()
    assert f"Path={path}" in info  # restorable to where it was


def test_a_file_just_written_is_trashed_only_when_forced(tmp_path: Path, home_trash: Path) -> None:
    path = _session(tmp_path, age=0)
    with pytest.raises(ConcurrentWriteWarning, match="may be writing it"):
        trash_session(path)
    assert path.exists()
    trash_session(path, force=True)
    assert not path.exists() and (home_trash / "files" / "s.jsonl").exists()


def test_trash_that_refuses_keeps_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _session(tmp_path)
    content = path.read_bytes()

    def refuse(target: str) -> None:
        raise plat_other.TrashPermissionError(target)

    monkeypatch.setattr(trash, "send2trash", refuse)
    with pytest.raises(PituiError, match=r"cannot move .* to the trash: Permission denied"):
        trash_session(path)
    assert path.read_bytes() == content


def test_trash_other_failure_keeps_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path)

    def broken(target: str) -> None:
        raise OSError("Couldn't find mount point")

    monkeypatch.setattr(trash, "send2trash", broken)
    with pytest.raises(PituiError, match="mount point"):
        trash_session(path)
    assert path.exists()


def test_trash_that_silently_does_nothing_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path)
    monkeypatch.setattr(trash, "send2trash", lambda target: None)
    with pytest.raises(PituiError, match="did not take"):
        trash_session(path)
    assert path.exists()


def test_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(PituiError, match="not a regular file"):
        trash_session(tmp_path)
    link = tmp_path / "link.jsonl"
    link.symlink_to(_session(tmp_path))
    with pytest.raises(PituiError, match="not a regular file"):
        trash_session(link)
    assert link.is_symlink()
    with pytest.raises(PituiError, match="cannot trash"):
        trash_session(tmp_path / "missing.jsonl")


def test_a_name_that_is_not_utf8_comes_back_with_its_own_bytes(
    home_trash: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trash records it as %FF; it was decoded as UTF-8, so the file came back named
    with U+FFFD instead."""
    from pitui.core.changes import restore

    monkeypatch.setenv("XDG_DATA_HOME", str(home_trash.parent))  # where restore looks
    folder = tmp_path / "sessions"
    folder.mkdir()
    original = folder / os.fsdecode(b"bad\xffname.jsonl")
    original.write_text('{"type":"session","id":"x","timestamp":"2025-01-01T00:00:00.000Z"}\n')
    trash_session(original, force=True)
    (item,) = restore.list_trashed()
    assert item.original == original
    assert restore.restore(item) == original
    assert os.listdir(os.fsencode(folder)) == [b"bad\xffname.jsonl"]


@pytest.mark.parametrize("data_home", ["", "relative/data"])
def test_an_empty_or_relative_xdg_data_home_means_the_home_trash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_home: str
) -> None:
    """The spec ignores such a value; send2trash took "" for the current folder, so the
    session went to `./Trash` in the project, said "moved to the trash", and neither
    `restore` nor the trash view found it."""
    from pitui.core.changes import restore

    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", data_home)
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)  # "same device as home"
    monkeypatch.chdir(work)
    path = _session(tmp_path)
    trash_session(path)
    assert (home / ".local" / "share" / "Trash" / "files" / "s.jsonl").exists()
    assert list(work.iterdir()) == []
    assert [item.session_id for item in restore.list_trashed()] == ["x"]
