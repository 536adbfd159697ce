"""Conformance: `fork_session` writes what Pi 1.6.0's createBranchedSession writes."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pitui.core.changes.fork import fork_session, js_resolve
from pitui.core.errors import PituiError
from pitui.core.session.session import Session
from pitui.demo.generate import generate_corpus

pytestmark = pytest.mark.oracle

NAME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_([0-9a-f-]{36})\.jsonl$")
LEAVES_PER_FILE = 6
INTERESTING = ("label", "compaction", "branch_summary", "context_edit", "custom_message")


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def normalise_labels(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Label entries get fresh random ids (in Pi too): name them by position."""
    names: dict[str, str] = {}
    out = []
    for entry in entries:
        entry = dict(entry)
        if entry.get("type") == "label":
            names[entry["id"]] = f"label#{len(names)}"
            entry["id"] = names[entry["id"]]
        if entry.get("parentId") in names:
            entry["parentId"] = names[entry["parentId"]]
        out.append(entry)
    return out


def pick_leaves(session: Session, rng: random.Random) -> list[str]:
    entries = session.tree.entries
    special = [e.id for e in entries if e.type in INTERESTING]
    rest = [e.id for e in entries if e.type not in INTERESTING]
    chosen = special[: LEAVES_PER_FILE // 2] + rng.sample(rest, min(len(rest), LEAVES_PER_FILE))
    return [*dict.fromkeys([*chosen, entries[-1].id])]


def check_leaf(pi_oracle: Any, source: Path, leaf: str, out: Path) -> bool:
    pi = pi_oracle.request({"op": "branch", "file": str(source), "leafId": leaf})
    if pi is None:  # Pi writes no file for a path without conversation: pitui refuses
        with pytest.raises(PituiError, match="no user or assistant message"):
            fork_session(source, leaf, out)
        return False
    result = fork_session(source, leaf, out)
    ours = lines_of(result.path)
    match = NAME.match(result.path.name)
    assert match and match.group(1) == result.session_id == ours[0]["id"]
    assert NAME.match(pi["name"])
    header, pi_header = ours[0], pi["lines"][0]
    assert list(header) == list(pi_header)
    for key in ("type", "version", "cwd"):
        assert header[key] == pi_header[key]
    assert header["parentSession"] == js_resolve(str(source))
    assert pi_header["parentSession"] == pi["source"]
    assert normalise_labels(ours[1:]) == normalise_labels(pi["lines"][1:]), f"{source} {leaf}"
    # byte for byte, except the header and the labels' fresh ids
    text = result.path.read_text(encoding="utf-8").splitlines()
    kept = [i for i, e in enumerate(ours) if i and e.get("type") != "label"]
    assert [text[i] for i in kept] == [pi["text"][i] for i in kept]
    assert [list(e) for e in ours[1:]] == [list(e) for e in pi["lines"][1:]]
    fork_context = pi_oracle.request({"op": "context", "file": str(result.path)})
    leaf_context = pi_oracle.request({"op": "context", "file": str(source), "leafId": leaf})
    for key in ("messages", "thinkingLevel", "model", "tokens"):
        assert fork_context.get(key) == leaf_context.get(key), f"{source} {leaf} {key}"
    assert Session(result.path).context().to_json() == Session(source).context(leaf).to_json()
    return True


def test_forks_of_corpus_leaves_match_pi(pi_oracle: Any, tmp_path: Path) -> None:
    files = generate_corpus(tmp_path / "sessions", seed=11, include_malformed=False)
    rng = random.Random(3)
    forked = 0
    types: set[str] = set()
    for path in files:
        session = Session(path)
        if session.version != 3:
            continue  # Pi gives migrated v1/v2 entries random ids
        before = path.read_bytes()
        for leaf in pick_leaves(session, rng):
            if check_leaf(pi_oracle, path, leaf, tmp_path / "out"):
                forked += 1
                types.update(e.type for e in session.tree.path_to(leaf))
        assert path.read_bytes() == before, "forking must not change the source"
    assert forked >= 40
    assert {"label", "compaction", "branch_summary", "context_edit"} <= types
