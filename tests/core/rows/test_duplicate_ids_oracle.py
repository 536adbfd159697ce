"""Repeated entry ids: Pi's getTree hangs the last line's node under the parent of every
line with that id, so its /tree shows it (and its subtree) once per line. Same rows here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pitui.core.rows.rows import TreeRows
from pitui.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z"}


def msg(eid: str, parent: str | None, second: int, text: str | None = None) -> dict[str, Any]:
    return {
        "type": "message",
        "id": eid,
        "parentId": parent,
        "timestamp": f"2026-01-01T00:00:{second:02d}.000Z",
        "message": {"role": "user", "content": text or eid},
    }


CASES = {
    "two parents": [
        msg("a", None, 1),
        msg("b", "a", 2),
        msg("c", "a", 3),
        msg("x", "b", 4, "first x"),
        msg("y", "x", 5),
        msg("x", "c", 6, "second x"),
        msg("z", "x", 7),
    ],
    "same parent twice": [msg("a", None, 1), msg("x", "a", 2), msg("x", "a", 3), msg("k", "x", 4)],
    "root and child": [msg("x", None, 5), msg("a", None, 1), msg("x", "a", 2), msg("k", "a", 3)],
    "self parent": [msg("a", None, 1), msg("x", "x", 2), msg("x", "a", 3), msg("k", "x", 4)],
    "orphan": [msg("a", None, 1), msg("x", "gone", 2), msg("x", "a", 3)],
    "older sibling time": [msg("a", None, 1), msg("x", "a", 9), msg("b", "a", 5), msg("x", "b", 2)],
    "leaf repeated": [msg("a", None, 1), msg("b", "a", 2), msg("c", "a", 4), msg("c", "b", 5)],
}


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    header = {**HEADER, "cwd": str(path.parent)}
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *lines]))
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_rows_of_repeated_ids_equal_pi(pi_oracle: Any, tmp_path: Path, name: str) -> None:
    path = write(tmp_path / "s.jsonl", CASES[name])
    pi = pi_oracle.request({"op": "treeRows", "file": str(path), "home": str(tmp_path)})
    rows = TreeRows(Session(path).tree, "everything").rows
    assert [row.entry.id for row in rows] == [row["id"] for row in pi]
    assert [row.text for row in rows] == [row["text"] for row in pi]
    assert len(rows) > len({row.entry.id for row in rows})  # the repeat shows


def test_repeats_that_close_a_cycle_end(tmp_path: Path) -> None:
    """Pi walks such a file for ever; here the closing placement is left out."""
    lines = [msg("a", None, 1), msg("b", "a", 2), msg("a", "b", 3), msg("c", "a", 4)]
    tree = Session(write(tmp_path / "s.jsonl", lines)).tree
    ids = [row.entry.id for row in TreeRows(tree, "everything").rows]
    assert set(ids) == {"a", "b", "c"} and len(ids) < 10


def test_nested_repeats_stay_bounded(tmp_path: Path) -> None:
    """Each level's id under two parents doubles Pi's rows; the rows stay bounded here."""
    lines = [msg("r", None, 0)]
    parent = "r"
    for level in range(40):
        left, right, node = f"l{level}", f"r{level}", f"n{level}"
        lines += [msg(left, parent, 1), msg(right, parent, 2)]
        lines += [msg(node, left, 3), msg(node, right, 4)]
        parent = node
    tree = Session(write(tmp_path / "s.jsonl", lines)).tree
    rows = TreeRows(tree, "everything").rows
    assert 2**20 > len(rows) <= 6 * len(tree.entries) + 10_000
    assert {row.entry.id for row in rows} == set(tree.by_id)
