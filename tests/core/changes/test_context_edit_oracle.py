"""Conformance: pitui's context edits are Pi's appendContextEdit lines, and Pi's
buildSessionContext of the edited file equals `pitui context --json`."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from pitui.cli import main
from pitui.core.changes import context_edit
from pitui.core.errors import PituiError
from pitui.core.session.session import Session
from pitui.demo.generate import generate_varied_session, write_session

pytestmark = pytest.mark.oracle
OLD = 1_600_000_000


@pytest.fixture
def session(tmp_path: Path) -> Path:
    header, entries = generate_varied_session(random.Random(8))
    # up to the second root: the leaf then ends the branch with compactions and custom messages
    second_root = next(i for i, e in enumerate(entries) if i and e["parentId"] is None)
    path = write_session(tmp_path / "s.jsonl", header, entries[:second_root])
    os.utime(path, (OLD, OLD))
    return path


def pitui_context(path: Path, capsys: pytest.CaptureFixture) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["context", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def pi_context(pi_oracle: Any, path: Path) -> dict[str, Any]:
    pi = pi_oracle.request({"op": "context", "file": str(path)})
    return {k: pi[k] for k in ("messages", "thinkingLevel", "model") if k in pi}


def last_line(path: Path) -> dict[str, Any]:
    return json.loads(path.read_bytes().split(b"\n")[-2])


def targets(path: Path) -> dict[str, list[str]]:
    """Editable entries on the active branch by kind, and those Pi's context leaves out."""
    session = Session(path)
    branch = session.tree.path_to(session.tree.leaf.id)
    in_context = {item.entry.id for item in session.context().items}
    kinds: dict[str, list[str]] = {}
    for entry in branch:
        if context_edit.editable(entry):
            kind = context_edit.role_of(entry)
            kinds.setdefault(kind, []).append(entry.id)
            if entry.id not in in_context:
                kinds.setdefault("summarized", []).append(entry.id)
    return kinds


def test_edits_match_pi(session: Path, pi_oracle: Any, capsys: pytest.CaptureFixture) -> None:
    kinds = targets(session)
    assert {"user", "assistant", "toolResult", "custom", "summarized"} <= set(kinds)
    plan = []
    for kind in ("user", "assistant", "toolResult", "custom", "summarized"):
        ids = kinds[kind]
        plan += [(ids[-1], ["--omit"]), (ids[0], ["--replace", f"short note on {kind}"])]
    checked = 0
    for target, option in plan:
        replacement = None if option == ["--omit"] else {"content": option[1]}
        pi = pi_oracle.request(
            {
                "op": "contextEdit",
                "file": str(session),
                "targetId": target,
                "replacement": replacement,
            }
        )
        assert main(["context-edit", str(session), target, *option]) == 0
        ours = last_line(session)
        expected = pi["line"]
        assert list(ours) == list(expected)
        assert {**ours, "id": "", "timestamp": ""} == {**expected, "id": "", "timestamp": ""}
        assert pi_context(pi_oracle, session) == pitui_context(session, capsys), (target, option)
        checked += 1
    assert checked == 10


def test_restore_undoes_an_edit(
    session: Path, pi_oracle: Any, capsys: pytest.CaptureFixture
) -> None:
    before = pitui_context(session, capsys)
    kinds = targets(session)
    edited = [kinds["user"][-1], kinds["toolResult"][-1], kinds["custom"][-1]]
    for target in edited:
        context_edit.omit(session, target)
    assert pi_context(pi_oracle, session) != before
    for target in edited:
        context_edit.restore(session, target)
    assert pi_context(pi_oracle, session) == before == pitui_context(session, capsys)


def test_refusals_give_pis_reason(session: Path, pi_oracle: Any) -> None:
    tree = Session(session).tree
    branch = {e.id for e in tree.path_to(tree.leaf.id)}
    compaction = next(e.id for e in tree.entries if e.type == "compaction" and e.id in branch)
    label = next(e.id for e in tree.entries if e.type == "label")
    off_branch = next(e.id for e in tree.entries if context_edit.editable(e) and e.id not in branch)
    before = session.read_bytes()
    for target in (compaction, label, off_branch, "nope"):
        pi = pi_oracle.request(
            {"op": "contextEdit", "file": str(session), "targetId": target, "replacement": None}
        )
        with pytest.raises(PituiError) as raised:
            context_edit.omit(session, target)
        if target == "nope":  # Pi refuses too; pitui says it as its other commands do
            assert pi["error"] == "Entry nope not found"
            assert str(raised.value) == f"no entry with id 'nope' in {session}"
        else:
            assert str(raised.value).startswith(pi["error"].split(" (")[0]), target
    with pytest.raises(PituiError, match="must be null or contain"):
        context_edit.append_context_edit(session, tree.leaf.id, {"text": "x"})
    assert session.read_bytes() == before
