"""Reading the freedesktop trash: relative and percent-encoded paths, non-sessions ignored,
other platforms told clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.core.changes import restore
from pitui.core.errors import PituiError

HEADER = b'{"type":"session","id":"abc-123","timestamp":"2026-01-01T00:00:00.000Z"}\n'


def _put(trash: Path, name: str, path_value: str, content: bytes) -> None:
    (trash / "files").mkdir(parents=True, exist_ok=True)
    (trash / "info").mkdir(parents=True, exist_ok=True)
    (trash / "files" / name).write_bytes(content)
    (trash / "info" / f"{name}.trashinfo").write_text(
        f"[Trash Info]\nPath={path_value}\nDeletionDate=2026-02-03T04:05:06\n"
    )


def test_lists_sessions_only_and_decodes_paths(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    trash = tmp_path / "data" / "Trash"
    _put(trash, "a b.jsonl", "/x/a%20b.jsonl", HEADER)
    _put(trash, "rel.jsonl", "sessions/rel.jsonl", HEADER.replace(b"abc-123", b"def-456"))
    _put(trash, "notes.jsonl", "/x/notes.jsonl", b'{"type":"message"}\n')
    _put(trash, "photo.png", "/x/photo.png", HEADER)
    _put(trash, "odd.jsonl", "/etc/odd-name", HEADER)  # restores only to a .jsonl path
    items = {t.session_id: t for t in restore.list_trashed()}
    assert set(items) == {"abc-123", "def-456"}
    assert items["abc-123"].original == Path("/x/a b.jsonl")
    assert items["def-456"].original == tmp_path / "data" / "sessions" / "rel.jsonl"
    assert restore.find(list(items.values()), "def").session_id == "def-456"
    with pytest.raises(PituiError, match="no session in the trash"):
        restore.find(list(items.values()), "zzz")


def test_restore_renames_back_byte_identical(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    content = HEADER + b'{"type":"message","id":"1"}\n{"partial'
    target = tmp_path / "gone" / "folder" / "s.jsonl"
    _put(tmp_path / "data" / "Trash", "s.jsonl", str(target), content)
    (item,) = restore.list_trashed()
    inode = item.trashed.stat().st_ino
    assert restore.restore(item) == target
    assert target.read_bytes() == content and target.stat().st_ino == inode
    assert restore.list_trashed() == []


def test_other_platforms_are_told(monkeypatch) -> None:
    monkeypatch.setattr(restore.sys, "platform", "darwin")
    with pytest.raises(PituiError, match=r"freedesktop trash .* on darwin"):
        restore.list_trashed()
