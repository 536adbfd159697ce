"""The order Pi's tree selector walks a session tree in: depth first, the branch holding the
active leaf first at each branch point."""

from __future__ import annotations

from collections.abc import Iterator

from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree


def walk(tree: SessionTree, active: set[str]) -> Iterator[Entry]:
    """Every entry in the order Pi's tree selector walks them: depth first, the branch
    holding the active leaf first at each level."""
    children = tree.placements
    stack = list(reversed(active_first(children[None], active)))
    expanded: set[str] = set()
    visits, budget = 0, 4 * len(tree.entries) + 10_000  # as in TreeRows._flatten
    while stack:
        entry = stack.pop()
        visits += 1
        yield entry
        kids = children.get(entry.id)
        if kids and (entry.id not in expanded or visits + len(stack) <= budget):
            expanded.add(entry.id)
            stack.extend(reversed(active_first(kids, active)))


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
