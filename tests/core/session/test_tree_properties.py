"""Property tests: any parent graph (cycles, duplicates, orphans) builds a tree whose every
walk terminates, and building it entry by entry equals building it at once."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from entry_builders import header
from hypothesis import given, settings
from hypothesis import strategies as st

from pitui.core.session.context import build_context
from pitui.core.session.entry import Entry
from pitui.core.session.reader import SessionReader
from pitui.core.session.tree import SessionTree, links_of

ids = st.sampled_from([f"e{i}" for i in range(12)])
entries_strategy = st.lists(
    st.tuples(
        ids,
        st.one_of(st.none(), ids, st.just("missing")),
        st.sampled_from(["message", "compaction", "context_edit", "label", "branch_summary"]),
        st.integers(0, 59),
    ),
    max_size=30,
)


def make_entries(spec: list[tuple[str, str | None, str, int]]) -> list[Entry]:
    out = []
    for index, (eid, parent, kind, second) in enumerate(spec):
        raw = {
            "type": kind,
            "id": eid,
            "parentId": parent,
            "timestamp": f"2025-01-01T00:00:{second:02d}.000Z",
        }
        if kind == "message":
            raw["message"] = {"role": "user", "content": eid}
        elif kind == "compaction":
            raw.update(summary="s", firstKeptEntryId=parent, tokensBefore=1)
        elif kind in ("context_edit", "label"):
            raw.update(targetId=parent, replacement=None, label="x")
        else:
            raw.update(summary="b", fromId=parent)
        out.append(Entry.from_raw(raw, index + 2, index * 10, index))
    return out


def shape(tree: SessionTree) -> tuple:
    return (
        sorted((k, [e.id for e in v]) for k, v in tree.children.items() if k is not None),
        [e.id for e in tree.roots],
        sorted((i, tree.parent_of(i)) for i in tree.by_id),
    )


@settings(max_examples=300, deadline=None)
@given(entries_strategy)
def test_every_walk_terminates_and_reaches_a_root(spec: list) -> None:
    tree = SessionTree(make_entries(spec))
    for entry_id in tree.by_id:
        path = tree.path_to(entry_id)
        assert len(path) <= len(tree.by_id)
        assert path[0] in tree.roots and path[-1].id == entry_id
        build_context(tree, entry_id)
    assert sum(len(v) for v in tree.children.values()) == len(tree.by_id)


@settings(max_examples=300, deadline=None)
@given(entries_strategy, st.integers(1, 5))
def test_incremental_equals_whole(spec: list, step: int) -> None:
    entries = make_entries(spec)
    incremental = SessionTree()
    for start in range(0, len(entries), step):
        assert incremental.children is not None  # children kept up to date while extending
        incremental.extend(entries[start : start + step])
    assert shape(incremental) == shape(SessionTree(entries))


# Chains as Pi writes them (each entry the child of the one before), with branches back to
# earlier entries, roots, orphans, self-parents and repeated ids mixed in.
chain_step = st.tuples(
    st.sampled_from(["previous"] * 6 + ["earlier", "none", "missing", "self", "repeat"]),
    st.integers(0, 10_000),
    st.sampled_from(["message"] * 3 + ["compaction", "thinking_level_change", "label"]),
    st.integers(0, 59),
)


def chain_spec(steps: list[tuple[str, int, str, int]]) -> list[tuple[str, str | None, str, int]]:
    spec: list[tuple[str, str | None, str, int]] = []
    for index, (how, pick, kind, second) in enumerate(steps):
        eid = f"c{index}"
        earlier = spec[pick % len(spec)][0] if spec else None
        parent = {
            "previous": spec[-1][0] if spec else None,
            "earlier": earlier,
            "none": None,
            "missing": "nowhere",
            "self": eid,
            "repeat": spec[-1][0] if spec else None,
        }[how]
        if how == "repeat" and earlier is not None:
            eid = earlier
        spec.append((eid, parent, kind, second))
    return spec


def walked_path(tree: SessionTree, entry_id: str) -> list[str]:
    """The path found one parent at a time, as the reference."""
    ids: list[str] = []
    current: str | None = entry_id
    while current is not None:
        ids.append(current)
        current = tree.parent_of(current)
    return ids[::-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(chain_step, max_size=40), st.integers(1, 7))
def test_paths_equal_a_walk_one_parent_at_a_time(steps: list, step: int) -> None:
    entries = make_entries(chain_spec(steps))
    incremental = SessionTree()
    for start in range(0, len(entries), step):
        incremental.extend(entries[start : start + step])
        assert incremental.children is not None
    for tree in (SessionTree(entries), incremental):
        for entry_id in tree.by_id:
            path = tree.path_to(entry_id)
            assert [e.id for e in path] == walked_path(tree, entry_id)
            for kind in ("compaction", "thinking_level_change"):
                last = max((i for i, e in enumerate(path) if e.type == kind), default=None)
                assert tree.last_of_type(path, kind) == last


@settings(max_examples=100, deadline=None)
@given(st.lists(chain_step, min_size=1, max_size=40))
def test_links_noted_while_decoding_equal_links_worked_out_after(steps: list) -> None:
    """The reader's hot loop repeats links_of() inline: both must agree on any file."""
    lines = [json.dumps(header())] + [json.dumps(e.raw) for e in make_entries(chain_spec(steps))]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        path.write_text("\n".join(lines) + "\n")
        batch = SessionReader(path).read()
    after = links_of(batch.entries)
    noted = batch.links
    assert noted.starts == after.starts and noted.by_id == after.by_id
    assert noted.unlinked == after.unlinked and noted.non_messages == after.non_messages
