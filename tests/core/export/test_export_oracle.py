"""Conformance: the jsonl export is Pi's createBranchedSession and loads in Pi with the same
context; the --context export holds exactly Pi's context messages."""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pitui.core.export.export import export_session
from pitui.core.export.options import ExportOptions
from pitui.core.rows.render_text import content_text
from pitui.core.rows.safe_text import visible
from pitui.core.session.session import Session
from tests.core.export.export_helpers import assert_in_order, store_sessions

pytestmark = pytest.mark.oracle
SCRIPT = Path(__file__).with_name("branch_oracle.mjs")


@pytest.fixture(scope="module")
def pi_branch(pi_oracle: Any) -> Iterator[Any]:
    """Pi's createBranchedSession, run by a Node process next to the oracle."""
    from oracle import oracle_available, oracle_dir

    proc = subprocess.Popen(
        [str(oracle_available()), str(SCRIPT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PITUI_ORACLE_DIR": str(oracle_dir())},
    )

    def branch(file: Path, leaf_id: str, work: Path) -> dict[str, Any]:
        assert proc.stdin and proc.stdout
        work.mkdir(parents=True, exist_ok=True)
        request = {"file": str(file), "leafId": leaf_id, "dir": str(work)}
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert answer["ok"], answer.get("error")
        return answer

    yield branch
    assert proc.stdin
    proc.stdin.close()
    proc.wait(timeout=10)


def leaves(session: Session, rng: random.Random, count: int = 1) -> list[int]:
    size = len(session.tree.entries)
    return sorted({size - 1, *rng.sample(range(size), min(count, size))})


def pi_context(pi_oracle: Any, file: Path, index: int | None) -> dict[str, Any]:
    return pi_oracle.request(
        {"op": "context", "file": str(file), "leafIndex": index, "leafId": None}
    )


def context_of(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: answer[k] for k in ("messages", "thinkingLevel", "model", "tokens")}


def test_jsonl_export_loads_in_pi_with_the_same_context(pi_oracle: Any, tmp_path: Path) -> None:
    rng = random.Random(5)
    checked = 0
    for number, session in enumerate(store_sessions(tmp_path)):
        for index in leaves(session, rng):
            leaf = session.tree.entries[index].id
            text = export_session(session, leaf, ExportOptions(format="jsonl")).text
            exported = tmp_path / "out" / f"{number}-{index}.jsonl"
            exported.parent.mkdir(exist_ok=True)
            exported.write_text(text, encoding="utf-8")
            expected = context_of(pi_context(pi_oracle, session.path, index))
            assert context_of(pi_context(pi_oracle, exported, None)) == expected, (
                f"{session.path.name} #{index}"
            )
            checked += 1
    assert checked > 50


def without_fresh_ids(lines: list[str]) -> list[dict[str, Any]]:
    """The lines with what each run makes anew (session id, time, label ids) blanked."""
    out = []
    labels: dict[str, str] = {}
    for line in lines:
        value = json.loads(line)
        if value["type"] == "session":
            value["id"] = value["timestamp"] = "*"
        elif value["type"] == "label" and value["id"] not in labels.values():
            labels[value["id"]] = f"label-{len(labels)}"
        out.append(value)
    text = json.dumps(out)
    for fresh, stable in labels.items():
        text = text.replace(json.dumps(fresh), json.dumps(stable))
    return json.loads(text)


def test_jsonl_export_is_pis_branched_session(
    pi_oracle: Any, pi_branch: Any, tmp_path: Path
) -> None:
    rng = random.Random(8)
    checked = 0
    for number, session in enumerate(store_sessions(tmp_path)):
        if session.version != 3:
            continue  # Pi gives v1 entries new random ids when it opens them
        for index in leaves(session, rng):
            leaf = session.tree.entries[index].id
            pi = pi_branch(session.path, leaf, tmp_path / "pi" / f"{number}-{index}")
            ours = export_session(Session(pi["source"]), leaf, ExportOptions(format="jsonl")).text
            theirs = without_fresh_ids(pi["lines"])
            if not session.cwd.startswith("/"):
                theirs[0]["cwd"] = session.cwd  # Pi on Linux resolves it against its own cwd
            assert without_fresh_ids(ours.splitlines()) == theirs
            checked += 1
    assert checked > 25


def message_lines(message: Any) -> list[str]:
    """The non-blank lines of a context message's text, as the export shows them."""
    if not isinstance(message, dict):
        return []
    role = message.get("role")
    if role in ("branchSummary", "compactionSummary"):
        text = str(message.get("summary", ""))
    elif role == "bashExecution":
        text = f"{message.get('command', '')}\n{message.get('output', '')}"
    else:
        text = content_text(message.get("content"), with_tools=False)
    lines = [visible(line).strip() for line in text.split("\n")]
    return [line for line in lines if line and not line.startswith("[image ")]


def test_context_export_holds_exactly_pis_context(pi_oracle: Any, tmp_path: Path) -> None:
    rng = random.Random(6)
    checked = 0
    for session in store_sessions(tmp_path):
        for index in leaves(session, rng):
            leaf = session.tree.entries[index].id
            markdown = export_session(
                session, leaf, ExportOptions(context=True, max_tool_lines=0)
            ).text
            pi = pi_context(pi_oracle, session.path, index)
            headings = [line for line in markdown.splitlines() if line.startswith("### ")]
            numbers = [int(h[4:].split(".", 1)[0]) for h in headings if h[4:5].isdigit()]
            assert numbers == list(range(1, len(pi["messages"]) + 1))
            assert f"about {pi['tokens']:,} tokens" in markdown
            assert_in_order(markdown, [line for m in pi["messages"] for line in message_lines(m)])
            checked += 1
    assert checked > 50


def test_labels_and_compaction_relinked_as_pi(
    pi_oracle: Any, pi_branch: Any, tmp_path: Path
) -> None:
    """Labels on the path dropped and written again at the end in Pi's order; a compaction
    that kept a label points at the entry after it; labels of other branches left out."""
    from pitui.demo.generate import write_session

    def at(n: int) -> str:
        return f"2025-01-01T00:00:{n:02d}.000Z"

    def message(eid: str, parent: str | None, n: int, role: str = "user") -> dict[str, Any]:
        content: Any = (
            f"text {eid}" if role == "user" else [{"type": "text", "text": f"text {eid}"}]
        )
        return {
            "type": "message",
            "id": eid,
            "parentId": parent,
            "timestamp": at(n),
            "message": {"role": role, "content": content},
        }

    def label(eid: str, parent: str, n: int, target: str, text: str | None) -> dict[str, Any]:
        entry = {
            "type": "label",
            "id": eid,
            "parentId": parent,
            "timestamp": at(n),
            "targetId": target,
        }
        return entry | ({"label": text} if text is not None else {})

    entries = [
        message("a", None, 1),
        label("l1", "a", 2, "a", "first"),
        message("b", "l1", 3, "assistant"),
        label("l2", "b", 4, "b", "second"),
        label("l3", "l2", 5, "a", None),  # clears a's label...
        message("c", "l3", 6),
        {
            "type": "compaction",
            "id": "k",
            "parentId": "c",
            "timestamp": at(7),
            "summary": "s",
            "firstKeptEntryId": "l2",
            "tokensBefore": 5,
        },
        message("x", "a", 8),  # another branch
        label("l4", "x", 9, "x", "elsewhere"),
        label("l5", "l4", 10, "a", "again"),  # ...and sets it again: it moves to the end
        message("d", "k", 11, "assistant"),
    ]
    path = write_session(
        tmp_path / "s.jsonl",
        {"type": "session", "version": 3, "id": "s1", "timestamp": at(0), "cwd": "/p"},
        entries,
    )
    pi = pi_branch(path, "d", tmp_path / "pi")
    ours = export_session(Session(pi["source"]), "d", ExportOptions(format="jsonl")).text
    lines = without_fresh_ids(ours.splitlines())
    assert lines == without_fresh_ids(pi["lines"])
    assert [e["id"] for e in lines[1:]] == ["a", "b", "c", "k", "d", "label-0", "label-1"]
    assert lines[4]["firstKeptEntryId"] == "c"
    assert [(e["targetId"], e["label"]) for e in lines[-2:]] == [("b", "second"), ("a", "again")]


def test_redacted_jsonl_still_loads_in_pi(pi_oracle: Any, tmp_path: Path) -> None:
    """Redaction changes text, never structure: Pi builds a context of as many messages."""
    from tests.core.export.test_export_redact import planted_session

    session = planted_session(tmp_path)
    text = export_session(session, options=ExportOptions(format="jsonl", redact=True)).text
    exported = tmp_path / "redacted.jsonl"
    exported.write_text(text, encoding="utf-8")
    original = pi_context(pi_oracle, session.path, None)
    redacted = pi_context(pi_oracle, exported, None)
    assert len(redacted["messages"]) == len(original["messages"]) > 20
    assert [m["role"] for m in redacted["messages"]] == [m["role"] for m in original["messages"]]
    assert "[REDACTED:" in json.dumps(redacted["messages"])
