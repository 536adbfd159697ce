"""TreeRows: Pi's /tree layout (guides, branch indentation, active path), filters, folding,
search, and incremental append equal to a full rebuild."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from entry_builders import entries, message_entry, msg, ts

from pitui.core.rows.rows import FILTERS, TreeRows
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree
from pitui.demo.generate import generate_varied_session, write_session


def tool_call(eid: str, parent: str, call_id: str, n: int = 0) -> dict[str, Any]:
    call = {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "ls"}}
    message = {"role": "assistant", "content": [call], "stopReason": "toolUse"}
    return message_entry(eid, parent, message, n)


def tool_result(eid: str, parent: str, call_id: str, n: int = 0) -> dict[str, Any]:
    message = {"role": "toolResult", "toolCallId": call_id, "toolName": "bash", "content": "ok"}
    return message_entry(eid, parent, message, n)


def other(kind: str, eid: str, parent: str | None, n: int = 0, **kw: Any) -> dict[str, Any]:
    return {"type": kind, "id": eid, "parentId": parent, "timestamp": ts(n), **kw}


def tree_of(*raws: dict[str, Any]) -> SessionTree:
    return SessionTree(entries(list(raws)))


def lines(rows: TreeRows) -> list[str]:
    return [row.plain() for row in rows.rows]


def snapshot(rows: TreeRows) -> list[tuple[Any, ...]]:
    return [
        (r.entry.id, r.plain(), r.depth, r.on_active_path, r.is_leaf_marker, r.folded, r.label)
        for r in rows.rows
    ]


BRANCHED = [
    msg("r", None, text="root", n=1),
    msg("a", "r", "assistant", "answer", n=2),
    msg("b1", "a", text="first try", n=3),
    msg("b1a", "b1", "assistant", "reply one", n=4),
    msg("b2", "a", text="second try", n=5),
    msg("b2a", "b2", "assistant", "reply two", n=6),
]


def test_branch_layout_active_first_and_guides() -> None:
    rows = TreeRows(tree_of(*BRANCHED))
    assert lines(rows) == [
        "• user: root",
        "• assistant: answer",
        "├⊟ • user: second try",
        "│     • assistant: reply two",
        "└⊟ user: first try",
        "      assistant: reply one",
    ]
    assert [r.depth for r in rows.rows] == [0, 0, 1, 2, 1, 2]  # +1 after a branch, as Pi
    assert rows.rows[3].is_leaf_marker and not rows.rows[2].is_leaf_marker
    assert rows.rows[1].has_children and not rows.rows[1].foldable  # not a root nor a segment


def test_linear_chain_stays_flat() -> None:
    raws = [msg(f"e{i}", f"e{i - 1}" if i else None, text=f"m{i}", n=i) for i in range(5)]
    rows = TreeRows(tree_of(*raws))
    assert [r.depth for r in rows.rows] == [0] * 5
    assert all(r.guide == "" and r.on_active_path for r in rows.rows)


def test_multiple_roots_and_orphans() -> None:
    rows = TreeRows(tree_of(msg("r1", None, n=1), msg("x", "r1", n=2), msg("r2", None, n=3)))
    assert lines(rows) == ["• user: hi", "user: hi", "   user: hi"]
    assert rows.rows[0].entry.id == "r2"  # the root holding the leaf comes first


def test_default_filter_hides_settings_usage_and_tool_only_assistants() -> None:
    raws = [
        msg("u", None, n=1),
        other("model_change", "m", "u", n=2, provider="p", modelId="x"),
        other("thinking_level_change", "t", "m", n=3, thinkingLevel="high"),
        other("usage", "us", "t", n=4),
        tool_call("tc", "us", "c1", n=5),
        tool_result("tr", "tc", "c1", n=6),
        other("label", "l", "tr", n=7, targetId="u", label="start"),
        other("session_info", "si", "l", n=8, name="nm"),
        other("custom", "cu", "si", n=9, customType="ext"),
        msg("end", "cu", "assistant", "done", n=10),
    ]
    tree = tree_of(*raws)
    assert lines(TreeRows(tree)) == [
        "• [start] user: hi",
        "• [bash: ls]",
        "• assistant: done",
    ]
    everything = [r.entry.id for r in TreeRows(tree, "all").rows]
    assert everything == ["u", "m", "t", "tr", "l", "si", "cu", "end"]  # no usage, no tc
    assert [r.entry.id for r in TreeRows(tree, "no-tools").rows] == ["u", "end"]
    assert [r.entry.id for r in TreeRows(tree, "user-only").rows] == ["u"]
    assert [r.entry.id for r in TreeRows(tree, "labeled-only").rows] == ["u"]


def test_leaf_tool_call_is_shown_and_hidden_children_reparent() -> None:
    tree = tree_of(msg("u", None, n=1), tool_call("tc", "u", "c1", n=2))
    assert lines(TreeRows(tree)) == ["• user: hi", "• assistant: (no content)"]
    # user-only: assistants hidden, users hang under the nearest shown ancestor
    raws = [*BRANCHED, msg("b2u", "b2a", text="more", n=7)]
    rows = TreeRows(tree_of(*raws), "user-only")
    assert lines(rows) == [
        "• user: root",
        "├⊟ • user: second try",
        "│     • user: more",
        "└─ user: first try",
    ]


def test_fold_unfold_and_fold_all() -> None:
    rows = TreeRows(tree_of(*BRANCHED))
    assert rows.fold("b2") and lines(rows)[2] == "├⊞ • user: second try"
    assert [r.entry.id for r in rows.rows] == ["r", "a", "b2", "b1", "b1a"]
    assert not rows.fold("a")  # not foldable
    assert rows.toggle_fold("b2") and len(rows) == 6
    assert rows.fold_all() and [r.entry.id for r in rows.rows] == ["r", "a", "b2", "b1"]
    assert rows.unfold_all() and len(rows) == 6
    assert rows.fold("r") and lines(rows) == ["⊞ • user: root"]
    rows.set_filter("all")  # as in Pi, a filter change clears folds
    assert len(rows) == 6


def test_search_and_index() -> None:
    rows = TreeRows(tree_of(*BRANCHED))
    assert rows.search("REPLY") == [3, 5]
    assert rows.search("reply two") == [3]
    assert rows.search("assistant answer") == [1]
    assert rows.search("   ") == []
    assert rows.index_of("b1") == 4 and rows.index_of("nope") is None
    assert rows.parent_index(4) == 1 and rows.parent_index(0) is None
    assert rows.segment_start(5, "up") == 4 and rows.segment_start(1, "down") == 2


def test_cycle_filter_order() -> None:
    rows = TreeRows(tree_of(*BRANCHED))
    seen = [rows.cycle_filter() for _ in FILTERS]
    assert seen == [*FILTERS[1:], "default"]
    with pytest.raises(ValueError):
        rows.set_filter("bogus")


def test_labels_shown_and_control_characters_inert() -> None:
    tree = tree_of(
        msg("u", None, text="a\x1b]52;c;SGVsbG8=\x07b\nc\t[bold]x[/bold]", n=1),
        other("label", "l", "u", n=2, targetId="u", label="my\x1blabel"),
    )
    line = lines(TreeRows(tree))[0]
    assert "\x1b" not in line and "\x07" not in line and "\n" not in line
    assert line.startswith("• [my␛label] user: a␛]52;c;SGVsbG8=␇b c")


def test_linear_chain_100k_no_recursion_and_appends_in_place() -> None:
    n = 100_000
    raws = [msg(f"e{i}", f"e{i - 1}" if i else None, "user", "x", n=i) for i in range(n)]
    tree = SessionTree(entries(raws))
    rows = TreeRows(tree)
    assert len(rows) == n and rows.rows[-1].is_leaf_marker
    assert rows.fold("e0") and len(rows) == 1
    assert rows.unfold("e0") and rows.search("x")[-1] == n - 1
    more = entries([msg("new", f"e{n - 1}", text="y", n=n)], n)
    tree.extend(more)
    rows.rebuild = _no_rebuild  # type: ignore[method-assign]  # the live case: no rebuild
    assert rows.extend(more) == n - 1  # the parent row may change (fold sign)
    assert rows.index_of("new") == n


def _no_rebuild() -> None:
    raise AssertionError("rebuilt the rows for an entry appended under the leaf")


def comb(n: int) -> list[dict[str, Any]]:
    """Every node has a side leaf: indentation grows at each branch point."""
    raws = [msg("c0", None, n=0)]
    for i in range(1, n):
        raws.append(msg(f"s{i}", f"c{i - 1}", text="side", n=2 * i))
        raws.append(msg(f"c{i}", f"c{i - 1}", text="main", n=2 * i + 1))
    return raws


def test_deep_branching_no_recursion() -> None:
    rows = TreeRows(tree_of(*comb(3000)))
    assert len(rows) == 5999 and max(r.depth for r in rows.rows) > 1000


def assert_incremental_equals_rebuild(raws: list[dict[str, Any]], start: int, mode: str) -> None:
    tree = SessionTree(entries(raws[:start]))
    rows = TreeRows(tree, mode)
    for i in range(start, len(raws)):
        batch = entries([raws[i]], i)
        tree.extend(batch)
        rows.extend(batch)
        assert snapshot(rows) == snapshot(TreeRows(tree, mode)), (mode, i, raws[i]["id"])


LIVE = [
    *BRANCHED,
    msg("u3", "b2a", text="go on", n=7),
    tool_call("tc1", "u3", "c1", n=8),
    tool_result("tr1", "tc1", "c1", n=9),
    tool_call("tc2", "tr1", "c2", n=10),
    other("usage", "us", "tc2", n=11),
    tool_result("tr2", "us", "c2", n=12),
    other("label", "lb", "tr2", n=13, targetId="u3", label="here"),
    msg("fin", "lb", "assistant", "finished", n=14),
    msg("side", "u3", text="a new branch", n=15),
    msg("dup", "side", n=16),
]


@pytest.mark.parametrize("mode", FILTERS)
def test_incremental_append_equals_rebuild(mode: str) -> None:
    assert_incremental_equals_rebuild(LIVE, 2, mode)


def test_incremental_append_with_folds() -> None:
    tree = SessionTree(entries(LIVE[:8]))
    rows = TreeRows(tree)
    rows.fold("b1")
    for i in range(8, len(LIVE)):
        batch = entries([LIVE[i]], i)
        tree.extend(batch)
        rows.extend(batch)
        fresh = TreeRows(tree)
        fresh.fold("b1")
        assert snapshot(rows) == snapshot(fresh)


def test_incremental_varied_sessions(tmp_path: Path) -> None:
    for seed in range(3):
        header, raws = generate_varied_session(random.Random(seed), "/p")
        path = write_session(tmp_path / f"s{seed}.jsonl", header, raws)
        loaded = Session(path).tree.entries
        for mode in ("default", "all"):
            tree = SessionTree(loaded[:10])
            rows = TreeRows(tree, mode)
            for i in range(10, len(loaded)):
                tree.extend(loaded[i : i + 1])
                rows.extend(loaded[i : i + 1])
            assert snapshot(rows) == snapshot(TreeRows(tree, mode))


def test_a_live_chain_is_extended_in_place() -> None:
    """Speed is measured in benchmarks/: here, that each appended entry takes the O(1) path
    (no rebuild) and that the rows are those of a fresh build."""
    raws = [msg(f"e{i}", f"e{i - 1}" if i else None, "user", "x", n=i) for i in range(20_000)]
    tree = SessionTree(entries(raws[:10_000]))
    rows = TreeRows(tree)
    rows.rebuild = _no_rebuild  # type: ignore[method-assign]
    for i in range(10_000, 20_000):
        batch = entries([raws[i]], i)
        tree.extend(batch)
        rows.extend(batch)
    assert len(rows) == 20_000
    assert snapshot(rows) == snapshot(TreeRows(tree))
