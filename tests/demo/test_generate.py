"""Tests for the deterministic Pi session generators (pitui.demo.generate)."""

from __future__ import annotations

import inspect
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from pitui.demo.generate import (
    MISSING_PARENT_ID,
    generate_corpus,
    generate_large_session,
    generate_store,
    generate_v1_session,
    generate_v2_session,
    generate_varied_session,
    session_dir_name,
    session_file_name,
    write_demo_store,
    write_session,
)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.jsonl"))}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _walk(obj: Any, out: set[str]) -> None:
    """Collect ``type`` values of every nested block."""
    if isinstance(obj, dict):
        if isinstance(obj.get("type"), str):
            out.add(obj["type"])
        for v in obj.values():
            _walk(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _walk(v, out)


def test_session_dir_and_file_names() -> None:
    assert session_dir_name("/home/u/my:proj") == "--home-u-my-proj--"
    assert session_dir_name("C:\\Users\\dev") == "--C--Users-dev--"
    header = {"id": "abc", "timestamp": "2026-01-02T03:04:05.678Z"}
    assert session_file_name(header) == "2026-01-02T03-04-05-678Z_abc.jsonl"


def test_varied_session_is_deterministic(tmp_path: Path) -> None:
    a = write_session(tmp_path / "a.jsonl", *generate_varied_session(random.Random(7)))
    b = write_session(tmp_path / "b.jsonl", *generate_varied_session(random.Random(7)))
    c = write_session(tmp_path / "c.jsonl", *generate_varied_session(random.Random(8)))
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


@pytest.mark.parametrize("make", [generate_corpus, write_demo_store])
def test_stores_are_deterministic(tmp_path: Path, make: Any) -> None:
    root = tmp_path / "store"
    make(root)
    first = _tree(root)
    shutil.rmtree(root)
    make(root)
    assert _tree(root) == first
    assert len(first) >= 12


def test_corpus_lines_are_valid_pi_json(tmp_path: Path) -> None:
    paths = generate_corpus(tmp_path, include_malformed=False)
    assert len(paths) >= 20
    for path in paths:
        raw = path.read_text(encoding="utf-8")
        assert raw.endswith("\n") and "\r" not in raw
        for line in raw.splitlines():
            assert json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False) == line
        header = _lines(path)[0]
        assert header["type"] == "session"
        assert path.name == session_file_name(header)
        assert path.parent.name == session_dir_name(header["cwd"])


def test_corpus_has_odd_files(tmp_path: Path) -> None:
    odd = generate_corpus(tmp_path)[-4:]
    raw = [p.read_bytes() for p in odd]
    assert json.loads(raw[0].splitlines()[0]).get("type") != "session"
    assert b"{not json at all" in raw[1]
    assert b"\r\n" in raw[2]
    assert not raw[3].endswith(b"\n")


def test_ids_unique_and_parents_exist(tmp_path: Path) -> None:
    paths = generate_corpus(tmp_path, include_malformed=False)
    paths += list(write_demo_store(tmp_path / "demo").rglob("*.jsonl"))
    orphans = 0
    for path in paths:
        lines = _lines(path)
        if lines[0].get("version") is None:  # v1: no ids at all
            assert all("id" not in e and "parentId" not in e for e in lines[1:])
            continue
        ids = [e["id"] for e in lines[1:]]
        assert len(ids) == len(set(ids)), path
        assert all(len(i) == 8 and int(i, 16) >= 0 for i in ids)
        known = set(ids)
        for e in lines[1:]:
            if e["parentId"] is not None and e["parentId"] not in known:
                assert e["parentId"] == MISSING_PARENT_ID
                orphans += 1
    assert orphans > 0


def test_varied_corpus_covers_every_entry_type(tmp_path: Path) -> None:
    entries: list[dict[str, Any]] = []
    headers: list[dict[str, Any]] = []
    for path in generate_corpus(tmp_path, include_malformed=False):
        lines = _lines(path)
        headers.append(lines[0])
        entries.extend(lines[1:])
    types = {e["type"] for e in entries}
    assert types >= {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
        "context_edit",
        "usage",
    }
    roles = {e["message"]["role"] for e in entries if e["type"] == "message"}
    assert roles >= {"user", "assistant", "toolResult", "bashExecution", "custom", "system"}
    assert "hookMessage" in roles  # v2 files
    blocks: set[str] = set()
    _walk([e["message"] for e in entries if e["type"] == "message"], blocks)
    assert blocks >= {"text", "image", "thinking", "toolCall"}

    compactions = [e for e in entries if e["type"] == "compaction"]
    assert any(c.get("firstKeptEntryId") == c.get("id") for c in compactions)
    assert any("systemMessage" in c for c in compactions)
    assert any("firstKeptEntryIndex" in c for c in compactions)  # v1
    labels = [e for e in entries if e["type"] == "label"]
    assert any("label" not in e for e in labels) and any("label" in e for e in labels)
    edits = [e["replacement"] for e in entries if e["type"] == "context_edit"]
    assert None in edits
    assert any(isinstance(r, dict) and isinstance(r["content"], str) for r in edits)
    assert any(isinstance(r, dict) and isinstance(r["content"], list) for r in edits)
    assert any(e["type"] == "session_info" and e["name"] for e in entries)
    assert any(m.get("usage", {}).get("cost", {}).get("total") for m in _messages(entries))
    assert any("parentSession" in h for h in headers)
    assert any("version" not in h for h in headers)
    assert {h.get("version") for h in headers} >= {None, 2, 3}


def _messages(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["message"] for e in entries if e["type"] == "message"]


def test_varied_session_tree_shape() -> None:
    _, entries = generate_varied_session(random.Random(3))
    roots = [e for e in entries if e["parentId"] is None]
    assert len(roots) >= 2
    children: dict[str, int] = {}
    for e in entries:
        if e["parentId"]:
            children[e["parentId"]] = children.get(e["parentId"], 0) + 1
    assert max(children.values()) >= 3  # branch points
    by_id = {e["id"]: e for e in entries}
    for e in entries:
        if e["type"] == "context_edit":
            assert e["targetId"] in by_id
        if e["type"] == "branch_summary":
            assert e["fromId"] in by_id


def test_fork_points_at_existing_file(tmp_path: Path) -> None:
    paths = generate_corpus(tmp_path, include_malformed=False)
    forks = [p for p in paths if "parentSession" in _lines(p)[0]]
    assert forks
    for fork in forks:
        parent = Path(_lines(fork)[0]["parentSession"])
        assert parent.is_absolute() and parent.is_file()


def test_legacy_sessions() -> None:
    h1, e1 = generate_v1_session(random.Random(1))
    assert "version" not in h1 and "provider" in h1
    comp = next(e for e in e1 if e["type"] == "compaction")
    assert 0 < comp["firstKeptEntryIndex"] <= len(e1)
    h2, e2 = generate_v2_session(random.Random(1))
    assert h2["version"] == 2
    assert any(e.get("message", {}).get("role") == "hookMessage" for e in e2)


def test_demo_store(tmp_path: Path) -> None:
    sessions = write_demo_store(tmp_path / "agent")
    assert sessions == (tmp_path / "agent" / "sessions").resolve()
    files = sorted(sessions.rglob("*.jsonl"))
    assert len(files) >= 12
    folders = {p.parent.name for p in files}
    assert "--home-demo-projects-webshop--" in folders
    assert "--home-demo-projects-dotfiles--" in folders
    entries = [e for p in files for e in _lines(p)[1:]]
    types = {e["type"] for e in entries}
    assert types >= {"compaction", "branch_summary", "label", "session_info", "message"}
    blocks: set[str] = set()
    _walk(_messages(entries), blocks)
    assert blocks >= {"image", "thinking", "toolCall"}
    forks = [p for p in files if "parentSession" in _lines(p)[0]]
    assert forks and Path(_lines(forks[0])[0]["parentSession"]).is_file()


def test_large_session_and_store(tmp_path: Path) -> None:
    path = generate_large_session(tmp_path / "big.jsonl", n_entries=3_000, seed=1)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3_001
    avg = path.stat().st_size / 3_000
    assert 600 < avg < 1_600
    types = {json.loads(line)["type"] for line in lines[1:]}
    assert {"message", "model_change"} <= types
    again = generate_large_session(tmp_path / "big2.jsonl", n_entries=3_000, seed=1)
    assert again.read_bytes() == path.read_bytes()
    paths = generate_store(tmp_path / "store", 30, 50)
    assert len(paths) == 30
    assert len({p.parent for p in paths}) > 5
    assert all(len(p.read_text().splitlines()) >= 51 for p in paths)


def test_stores_keep_to_pis_format_and_edits_are_real_calls(tmp_path: Path) -> None:
    """Every generated session is one Pi could have written (a named session's name entry
    hangs off its last entry); with `edits`, a fifth of the calls edit or write a file, and
    `pitui log` finds them."""
    from pitui.core.file_history.session_changes import session_changes
    from pitui.core.session.check import check_session

    plain = generate_store(tmp_path / "plain", 40, 60)
    edited = generate_store(tmp_path / "edited", 40, 60, edits=True)
    assert all(check_session(str(p)).problems == [] for p in plain + edited)
    named = [p for p in plain if b'"session_info"' in p.read_bytes()]
    assert named
    assert all(session_changes(str(p)) == [] for p in plain)
    changes = [c for p in edited for c in session_changes(str(p))]
    assert len(changes) > 40 and {c.tool for c in changes} == {"edit", "write"}
    assert sum(c.succeeded for c in changes) > 0.9 * len(changes)


@pytest.mark.slow
def test_large_session_default_is_about_100mb(tmp_path: Path) -> None:
    """Benchmarks rely on the default being ~100k entries of ~1.1 KB: checked on a tenth of
    it (the entries are drawn the same way whatever the count); no timer."""
    default = inspect.signature(generate_large_session).parameters["n_entries"].default
    assert default == 100_000
    path = generate_large_session(tmp_path / "big.jsonl", n_entries=default // 10)
    assert 8e6 < path.stat().st_size < 13e6
    assert sum(1 for _ in path.open("rb")) == default // 10 + 1  # the header, then the entries


@pytest.mark.oracle
def test_lines_match_json_stringify(tmp_path: Path, pi_oracle: Any) -> None:
    paths = generate_corpus(tmp_path, include_malformed=False)
    paths += list(write_demo_store(tmp_path / "demo").rglob("*.jsonl"))
    paths.append(generate_large_session(tmp_path / "big.jsonl", n_entries=2_000))
    for path in paths:
        result = pi_oracle.request({"op": "roundtrip", "file": str(path)})
        assert result["mismatches"] == [], path
