"""`fork_session`: the path re-linked around labels, labels written again, nothing overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from entry_builders import header, msg, ts

from pitui.core.changes.fork import fork_session
from pitui.core.changes.new_file import write_new_file
from pitui.core.errors import PituiError
from pitui.core.session.session import Session


def write(path: Path, raws: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in raws), encoding="utf-8")
    return path


def label(eid: str, parent: str, target: str, text: str | None, n: int) -> dict[str, Any]:
    raw: dict[str, Any] = {"type": "label", "id": eid, "parentId": parent, "timestamp": ts(n)}
    raw["targetId"] = target
    if text is not None:
        raw["label"] = text
    return raw


def labelled_session(path: Path) -> Path:
    """u1 <- L1(label u1) <- a1 <- L2(label a1) <- u2 <- c1(compaction keeps from L2) <- a2,
    and a side branch b1 off u1 with a label on it."""
    compaction = {"type": "compaction", "id": "c1", "parentId": "u2", "timestamp": ts(6)}
    compaction |= {"summary": "sum", "firstKeptEntryId": "L2", "tokensBefore": 10}
    return write(
        path / "2025-01-01T00-00-00-000Z_s1.jsonl",
        [
            header("s1", cwd="/proj"),
            msg("u1", None, "user", "one", 1),
            label("L1", "u1", "u1", "first", 2),
            msg("a1", "L1", "assistant", "two", 3),
            label("L2", "a1", "a1", "answer", 4),
            msg("u2", "L2", "user", "three", 5),
            compaction,
            msg("a2", "c1", "assistant", "four", 7),
            msg("b1", "u1", "assistant", "side", 8),
            label("L3", "b1", "b1", "side label", 9),
            label("L4", "L3", "u1", "first again", 10),
        ],
    )


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_fork_relinks_around_labels_and_writes_labels_after(tmp_path: Path) -> None:
    source = labelled_session(tmp_path)
    before = source.read_bytes()
    result = fork_session(source, "a2")
    assert result.path.parent == tmp_path and source.read_bytes() == before
    head, *body = lines(result.path)
    assert head == {
        "type": "session",
        "version": 3,
        "id": result.session_id,
        "timestamp": head["timestamp"],
        "cwd": "/proj",
        "parentSession": str(source),
    }
    assert [(e["id"], e["parentId"]) for e in body[:5]] == [
        ("u1", None),
        ("a1", "u1"),
        ("u2", "a1"),
        ("c1", "u2"),
        ("a2", "c1"),
    ]
    assert body[3]["firstKeptEntryId"] == "u2"  # the dropped label L2 was replaced by u2
    labels = body[5:]
    assert [(e["targetId"], e["label"], e["timestamp"]) for e in labels] == [
        ("u1", "first again", ts(10)),  # Map order: u1 was set first, then overwritten
        ("a1", "answer", ts(4)),
    ]
    assert labels[0]["parentId"] == "a2" and labels[1]["parentId"] == labels[0]["id"]
    assert Session(result.path).context().to_json() == Session(source).context("a2").to_json()


def test_fork_into_another_folder_and_of_a_label_leaf(tmp_path: Path) -> None:
    source = labelled_session(tmp_path)
    result = fork_session(source, "L3", tmp_path / "new" / "dir")
    assert result.path.parent == tmp_path / "new" / "dir"
    body = lines(result.path)[1:]
    assert [e["id"] for e in body[:2]] == ["u1", "b1"]
    assert [e["label"] for e in body[2:]] == ["first again", "side label"]


@pytest.mark.parametrize("leaf", ["nope", ""])
def test_unknown_leaf_is_refused(tmp_path: Path, leaf: str) -> None:
    source = labelled_session(tmp_path)
    with pytest.raises(PituiError, match="no entry with id"):
        fork_session(source, leaf)
    assert sorted(os.listdir(tmp_path)) == [source.name]


def test_path_without_conversation_is_refused(tmp_path: Path) -> None:
    model = {"type": "model_change", "id": "m1", "parentId": None, "timestamp": ts(1)}
    model |= {"provider": "p", "modelId": "m"}
    source = write(tmp_path / "s.jsonl", [header(), model, msg("u1", "m1", n=2)])
    with pytest.raises(PituiError, match="no user or assistant message"):
        fork_session(source, "m1")
    assert fork_session(source, "u1").path.exists()


def test_not_a_session_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"type":"message"}\n')
    with pytest.raises(PituiError):
        fork_session(bad, "a")


def test_v1_source_forks_as_v3_with_the_ids_pitui_shows(tmp_path: Path) -> None:
    raws = [
        {"type": "session", "id": "old", "timestamp": ts(0), "cwd": "/p"},
        {"type": "message", "timestamp": ts(1), "message": {"role": "user", "content": "hi"}},
        {
            "type": "message",
            "timestamp": ts(2),
            "message": {"role": "assistant", "content": [{"type": "text", "text": "yo"}]},
        },
    ]
    source = write(tmp_path / "v1.jsonl", raws)
    before = source.read_bytes()
    session = Session(source)
    leaf = session.tree.entries[-1].id
    result = fork_session(source, leaf)
    assert source.read_bytes() == before
    fork = Session(result.path)
    assert fork.version == 3
    assert [e.id for e in fork.tree.entries] == [e.id for e in session.tree.entries]
    assert fork.context().to_json() == session.context(leaf).to_json()


def test_write_new_file_never_overwrites(tmp_path: Path) -> None:
    (tmp_path / "taken.jsonl").write_text("mine\n")
    with pytest.raises(PituiError, match="cannot write"):
        write_new_file(tmp_path, "taken.jsonl", [b"theirs\n"])
    assert (tmp_path / "taken.jsonl").read_text() == "mine\n"
    assert sorted(os.listdir(tmp_path)) == ["taken.jsonl"]  # no temporary file left


def test_fork_matches_pi_on_the_labelled_session(pi_oracle: Any, tmp_path: Path) -> None:
    source = labelled_session(tmp_path)
    for leaf in ("a2", "L3", "c1", "L4"):
        pi = pi_oracle.request({"op": "branch", "file": str(source), "leafId": leaf})
        ours = lines(fork_session(source, leaf, tmp_path / "out").path)
        strip = lambda es: [  # noqa: E731
            {k: v for k, v in e.items() if not (e["type"] == "label" and k in ("id", "parentId"))}
            for e in es
        ]
        assert strip(ours[1:]) == strip(pi["lines"][1:]), leaf
        assert [list(e) for e in ours] == [list(e) for e in pi["lines"]]


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"message","id":"m","parentId":"u1","v":1.0}',
        '{"type":"message","id":"m","parentId":"u1","v":1e+16}',
        '{"type":"message","id":"m","parentId":"u1","v":0.000001}',
        '{"type":"message","id":"m","parentId":"u1","v":12345678901234567890}',
        '{"type":"message","id":"m","parentId":"u1","v":-0.0}',
        '{"type":"message","id":"m","parentId":"u1","b":1,"2":3}',
        '{"type":"message", "id":"m","parentId":"u1"}',
        '{"type":"message","id":"m","parentId":"u1","s":"\\u00e9\\u001F\\ud800"}',
        '{"type":"message","id":"m","parentId":"u1","v":1,"v":2}',
        '{"type":"message","id":"m","parentId":"u1","s":"é\\n\\u001f","f":0.25}',
        '{"type":"message","id":"m","parentId":"u1","a":[1.0,2e3,-3.0],"e":"ed1e054f"}',
        '{"type":"message","id":"m","parentId":"u1","o":{"1":true},"n":9007199254740993}',
    ],
)
def test_copied_lines_are_what_pi_writes(tmp_path: Path, line: str) -> None:
    """A source line is copied only when it is JSON.stringify's own output; else re-encoded."""
    from pitui.core.changes.writer import encode_line
    from pitui.core.format.jsonline import parse_line

    head = [json.dumps(header()), json.dumps(msg("u1", None, n=1))]
    source = tmp_path / "s.jsonl"
    source.write_text("\n".join([*head, line]) + "\n", encoding="utf-8")
    written = fork_session(source, "m").path.read_bytes().split(b"\n")[2]
    assert written + b"\n" == encode_line(parse_line(line.encode()))
