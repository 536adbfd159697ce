"""An edit in place (same inode, not shorter, the first 4 KiB unchanged, the mtime maybe set
back) is never taken for an append: the file is read again whole (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from in_place import edit_in_place

from pitui.cli import main
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan.discovery import project_dir

TS = "2026-01-05T00:00:00.000Z"
OLD = {"name": b"Oldname work", "word": b"zebrakey", "tool": b"sk-PASTEDKEY1234567890"}
NEW = {"name": b"Newname work", "word": b"quokkaxy", "tool": b"**********************"}


def _entry(kind: str, entry_id: str, **fields: object) -> bytes:
    entry = {"type": kind, "id": entry_id, "parentId": None, "timestamp": TS, **fields}
    return orjson.dumps(entry) + b"\n"


def _session(cwd: str) -> bytes:
    """A session whose first 4 KiB hold only a long first message; the name, a word and a
    pasted key come after."""
    header = {"type": "session", "version": 3, "id": "edited", "timestamp": TS, "cwd": cwd}
    tool = {"role": "toolResult", "toolCallId": "t", "toolName": "bash",
            "content": [{"type": "text", "text": f"token {OLD['tool'].decode()}"}]}  # fmt: skip
    return b"".join([
        orjson.dumps(header) + b"\n",
        _entry("message", "00000001", message={"role": "user", "content": "lorem " * 900}),
        _entry("session_info", "00000002", name=OLD["name"].decode()),
        _entry("message", "00000003", message={"role": "user", "content": "the zebrakey here"}),
        _entry("message", "00000004", message=tool),
    ])  # fmt: skip


def _edit_in_place(path: Path, keys: tuple[str, ...] = tuple(OLD)) -> None:
    """Change the name, the word and the pasted key (those given) in place, all after the
    first 4 KiB, the mtime set back."""
    assert all(path.read_bytes().index(OLD[key]) > 4096 for key in keys)
    edit_in_place(path, {OLD[key]: NEW[key] for key in keys})


def _append(path: Path) -> None:
    with path.open("ab") as fh:
        fh.write(_entry("message", "00000005", message={"role": "user", "content": "yakappend"}))


def _found(catalog: Catalog, query: str) -> bool:
    result = catalog.search(query, sort="relevance")
    assert result.error is None
    return any(row.summary.id == "edited" for row in result.rows)


def _check(root: Path, cache: Path, words: dict[str, bool], name: str) -> None:
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        (summary,) = catalog.sessions()
        assert summary.name == name
        assert {word: _found(catalog, word) for word in words} == words


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, Path, Path]:
    root = tmp_path / "sessions"
    path = root / "--w--" / "edited.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(_session("/w"))
    return root, tmp_path / "cache", path


def test_same_size_edit_with_mtime_set_back_is_read_again(store: tuple[Path, Path, Path]) -> None:
    root, cache, path = store
    _check(root, cache, {"zebrakey": True, "PASTEDKEY1234567890": True}, "Oldname work")
    _edit_in_place(path)
    gone = {"zebrakey": False, "PASTEDKEY1234567890": False, "Oldname": False}
    _check(root, cache, {**gone, "quokkaxy": True}, "Newname work")
    _append(path)  # pi appends after the edit: read from the new end on, nothing old back
    _check(root, cache, {**gone, "quokkaxy": True, "yakappend": True}, "Newname work")


def test_edit_in_place_seen_by_a_catalog_kept_open(store: tuple[Path, Path, Path]) -> None:
    """The picker's path: a change reported by the watcher (`update_paths`)."""
    root, cache, path = store
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        _edit_in_place(path)
        assert catalog.update_paths([path]) == [path]
        assert catalog.sessions()[0].name == "Newname work"
        assert not _found(catalog, "zebrakey") and _found(catalog, "quokkaxy")


def test_an_edit_then_an_append_before_the_next_scan(store: tuple[Path, Path, Path]) -> None:
    """A script masks the pasted key (same length: every line ends where it did), pi
    appends, and only then is the file looked at: it grew, but not only by an append."""
    root, cache, path = store
    _check(root, cache, {"PASTEDKEY1234567890": True}, "Oldname work")
    _edit_in_place(path, ("tool",))
    _append(path)
    _check(root, cache, {"PASTEDKEY1234567890": False, "yakappend": True}, "Oldname work")


def test_cli_list_query_after_an_edit_in_place(
    store: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    root, cache, path = store
    agent = root.parent / "agent"
    sessions = agent / "sessions"
    moved = project_dir(sessions, "/w") / path.name
    moved.parent.mkdir(parents=True)
    path.rename(moved)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(cache))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)

    def listed(query: str) -> list[str | None]:
        assert main(["list", "--all", "--json", query]) == 0
        return [row["name"] for row in json.loads(capsys.readouterr().out)]

    assert listed("zebrakey") == ["Oldname work"]
    _edit_in_place(moved)
    assert listed("zebrakey") == []
    assert listed("PASTEDKEY1234567890") == []
    assert listed("quokkaxy") == ["Newname work"]
    _append(moved)
    assert listed("zebrakey") == []
    assert listed("yakappend") == ["Newname work"]
