"""The catalog lists exactly what Pi's SessionManager.listAll() / list(cwd) list."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan.discovery import project_dir
from pitui.core.catalog.summary import PI_KEYS
from pitui.demo.generate import CORPUS_CWDS, generate_corpus

pytestmark = pytest.mark.oracle

ODD_FILES: dict[str, bytes] = {
    "empty.jsonl": b"",
    "binary.jsonl": b"\x00\x01\x02\xff\xfe garbage\n",
    "no-message-field.jsonl": b'{"type":"session","id":"s1","timestamp":"2026-02-01T00:00:00Z","cwd":"/x"}\n'
    b'{"type":"message","id":"a1","parentId":null,"timestamp":"2026-02-01T00:00:01Z"}\n',
    "null-block.jsonl": b'{"type":"session","id":"s2","timestamp":"2026-02-01T00:00:00Z","cwd":"/x"}\n'
    b'{"type":"message","id":"a1","parentId":null,"timestamp":"2026-02-01T00:00:01Z",'
    b'"message":{"role":"user","content":[null]}}\n',
    "odd-values.jsonl": b'\n0\nnull\n{"type":"session","id":"s3","timestamp":17e11,"cwd":5}\n'
    b'{"type":"message","id":"a1","parentId":null,"timestamp":null,'
    b'"message":{"role":"user","content":[{"type":"text","text":12},{"type":"text"},'
    b'{"type":"text","text":"  hi  "},"x",{"type":"image"}]}}\n'
    b'{"type":"session_info","id":"b","parentId":"a1","timestamp":"2026-02-01T00:00:02Z",'
    b'"name":"  \\u00a0Named\\n "}\r\n'
    b'{"type":"message","id":"a2","parentId":"a1","timestamp":"bad",'
    b'"message":{"role":"assistant","content":"answer","timestamp":1769904000123.7}}\r'
    b'{"type":"message","id":"a3","parentId":"a2","message":{"role":"user","content":"tail"}}',
    "partial-header.jsonl": b'{"type":"session","id":"s4","timestamp":"2026-03-01T00:00:00.5Z","cwd":"/y"}',
    "numeric-name.jsonl": b'{"type":"session","id":"s5","timestamp":"2026-02-01T00:00:00Z","cwd":"/x"}\n'
    b'{"type":"session_info","id":"b","parentId":null,"timestamp":"2026-02-01T00:00:02Z","name":7}\n',
    "no-timestamps.jsonl": b'{"type":"session","id":"s6","cwd":"/z","parentSession":42}\n'
    b'{"type":"message","id":"a1","message":{"role":"user","content":"","timestamp":-5}}\n',
}


def _store(root: Path) -> Path:
    generate_corpus(root, seed=7, count=36)
    odd = root / "--odd--"
    odd.mkdir()
    for name, data in ODD_FILES.items():
        (odd / name).write_bytes(data)
    return root


def _by_path(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["path"]: {k: item.get(k) for k in PI_KEYS} for item in items}


def _assert_same(pi: list[dict[str, Any]], mine: list[dict[str, Any]]) -> None:
    assert _by_path(mine) == _by_path(pi)
    pi_times = [p["modified"] for p in pi]
    assert [m["modified"] for m in mine] == pi_times  # newest first, as Pi


def test_list_all_default(pi_oracle: Any, tmp_path: Path) -> None:
    root = _store(tmp_path / "agent" / "sessions")
    pi = pi_oracle.request({"op": "listAllDefault", "agentDir": str(tmp_path / "agent")})
    with Catalog(root, no_cache=True) as catalog:
        report = catalog.scan()
        mine = [s.pi_json() for s in catalog.sessions()]
    _assert_same(pi, mine)
    assert report.sessions == len(pi)
    assert report.skipped_not_sessions == 1 + 5  # corpus non-session + the odd rejects


def test_list_cwd_default(pi_oracle: Any, tmp_path: Path) -> None:
    """Pi's list(cwd) reads the cwd's default folder unfiltered: listAll() restricted to it
    (the oracle cannot move its default agent dir for "list", so compare against listAll)."""
    agent = tmp_path / "agent"
    root = _store(agent / "sessions")
    pi_all = pi_oracle.request({"op": "listAllDefault", "agentDir": str(agent)})
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan()
        for cwd in CORPUS_CWDS[:5]:
            folder = str(project_dir(root, cwd))
            pi = [p for p in pi_all if os.path.dirname(p["path"]) == folder]
            assert pi
            _assert_same(pi, [s.pi_json() for s in catalog.sessions(cwd)])


def test_list_cwd_in_foreign_dir(pi_oracle: Any, tmp_path: Path) -> None:
    """list(cwd, dir) with a dir that is not cwd's default folder filters by header cwd."""
    root = _store(tmp_path / "sessions")
    shared = tmp_path / "shared"  # a copy of the folder both cwds map to
    shutil.copytree(project_dir(root, "/home/dev/my-notes"), shared)
    with Catalog(root, custom_dir=shared, no_cache=True) as catalog:
        catalog.scan()
        for cwd in ("/home/dev/my-notes", "/home/dev-my/notes"):
            pi = pi_oracle.request({"op": "list", "cwd": cwd, "sessionDir": str(shared)})
            assert pi
            _assert_same(pi, [s.pi_json() for s in catalog.sessions(cwd)])


def test_custom_session_dir(pi_oracle: Any, tmp_path: Path) -> None:
    root = _store(tmp_path / "sessions")
    flat = tmp_path / "flat"
    flat.mkdir()
    for path in root.rglob("*.jsonl"):
        (flat / path.name).write_bytes(path.read_bytes())
    pi_all = pi_oracle.request({"op": "listAll", "sessionDir": str(flat)})
    with Catalog(root, custom_dir=flat, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan()
        _assert_same(pi_all, [s.pi_json() for s in catalog.sessions()])
        cwd = CORPUS_CWDS[1]
        pi = pi_oracle.request({"op": "list", "cwd": cwd, "sessionDir": str(flat)})
        _assert_same(pi, [s.pi_json() for s in catalog.sessions(cwd)])
        assert pi  # the header-cwd filter kept some


def test_all_messages_text(pi_oracle: Any, tmp_path: Path) -> None:
    root = _store(tmp_path / "agent" / "sessions")
    req = {"op": "listAllDefault", "agentDir": str(tmp_path / "agent"), "withText": True}
    pi = {p["path"]: p["allMessagesText"] for p in pi_oracle.request(req)}
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        mine = {p: s.all_messages_text for p, s in catalog.index.summaries().items()}
    assert mine == pi
