"""The order Pi's tree selector walks a session tree in: depth first, the branch holding the
active leaf first at each branch point. The one walk `TreeRows`, `pitui tree` and the tool
calls' settling share."""

from __future__ import annotations

from typing import NamedTuple

from pitui.core.rows.filters import EVERYTHING, passes
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree


class Walked(NamedTuple):
    """The entries a filter shows, in walking order."""

    entries: list[Entry]
    parents: list[int]  # each entry's nearest shown ancestor, as an index (-1: none)
    active: set[str]  # ids on the path root → leaf


def walk_shown(tree: SessionTree, mode: str) -> Walked:
    """The entries filter `mode` shows, in walking order, each after its nearest shown
    ancestor."""
    leaf = tree.leaf
    active = tree.active_path_ids()
    first = tree.leaf_holders() if tree.has_duplicates else active
    entries, parents = _walk(tree, first, mode, leaf.id if leaf is not None else None)
    return Walked(entries, parents, active)


def walk(tree: SessionTree) -> list[Entry]:
    """Every entry in walking order (what settles repeated tool call ids)."""
    return walk_shown(tree, EVERYTHING).entries


def _walk(
    tree: SessionTree, first: set[str], mode: str, leaf_id: str | None
) -> tuple[list[Entry], list[int]]:
    """The entries filter `mode` shows, an entry in `first` first at each branch point,
    each with the index of its nearest shown ancestor (-1: none)."""
    children, labeled = tree.placements, tree.labels
    entries: list[Entry] = []
    parents: list[int] = []
    stack = [(root, -1) for root in reversed(active_first(children[None], first))]
    # A repeated id shows its subtree once per placement, as in Pi; nested repeats could
    # multiply rows without end, so repeats stop expanding past a generous budget.
    expanded: set[str] | None = set() if tree.has_duplicates else None
    visits, budget = 0, 4 * len(tree.entries) + 10_000
    every = mode == EVERYTHING
    pop, add_entry, add_parent, get_kids = stack.pop, entries.append, parents.append, children.get
    while stack:
        entry, parent = pop()
        while True:  # down a chain of only children without the stack
            entry_id = entry.id
            visits += 1
            if every or passes(entry, mode, leaf_id, labeled):
                add_parent(parent)
                parent = len(entries)
                add_entry(entry)
            kids = get_kids(entry_id)
            if not kids:
                break
            if expanded is not None:
                if entry_id in expanded and visits + len(stack) > budget:
                    break
                expanded.add(entry_id)
            if len(kids) == 1:
                entry = kids[0]
                continue
            stack.extend((kid, parent) for kid in reversed(active_first(kids, first)))
            break
    return entries, parents


def active_first(entries: list[Entry], active: set[str]) -> list[Entry]:
    """Those in `active` first, each part in its order (Pi's stable sort)."""
    for i, entry in enumerate(entries):
        if entry.id in active:
            rest = entries[i + 1 :]
            if any(e.id in active for e in rest):  # a repeated id: several hold the leaf
                return [e for e in entries if e.id in active] + [
                    e for e in entries if e.id not in active
                ]
            return entries if i == 0 else [entry, *entries[:i], *rest]
    return entries
