"""Where Pi's /tree shows each entry when ids repeat.

Pi's getTree makes one node per id (the last line with that id) and then, for every line,
hangs that id's node under the parent the line names. A repeated id therefore shows once per
line that carries it, each time with the last line's content and children. Without repeated
ids this is the tree's own `children`.

Pi loops for ever when such placements close a cycle; here the placement that would close
it is left out, so every walk ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pitui.core.format.timestamps import sort_key
from pitui.core.session.entry import Entry

Placements = dict[str | None, list[Entry]]


def pi_placements(
    entries: list[Entry], by_id: dict[str, Entry], parent_of: Callable[[str], str | None]
) -> Placements:
    """Children of each id as Pi places them (None: the roots, in file order), from every
    line in file order, the node of each id, and the tree's parent of a node."""
    placed: Placements = {None: []}
    for node in by_id.values():
        placed[node.id] = []
    for line in entries:
        node = by_id[line.id]
        if line is node:
            parent_id = parent_of(node.id)  # cycle cuts included
        else:
            named = line.parent_id
            known = named is not None and named != line.id and named in by_id
            parent_id = named if known else None
        placed[parent_id].append(node)
    for parent_id, kids in placed.items():
        if parent_id is not None and len(kids) > 1:
            kids.sort(key=_timestamp)  # stable: equal times stay in file order, as in Pi
    _drop_cycle_closers(placed)
    return placed


def _timestamp(entry: Entry) -> float:
    return sort_key(entry.timestamp)


def _drop_cycle_closers(placed: Placements) -> None:
    """Remove each placement that leads back to a node being walked (depth first from the
    roots, each node's children walked once)."""
    state: dict[str, int] = {}  # 1: on the current walk, 2: done
    closers: set[tuple[str, int]] = set()
    for root in placed[None]:
        if state.get(root.id):
            continue
        state[root.id] = 1
        stack: list[tuple[str, Iterator[tuple[int, Entry]]]] = [
            (root.id, enumerate(placed[root.id]))
        ]
        while stack:
            parent_id, kids = stack[-1]
            step = next(kids, None)
            if step is None:
                state[parent_id] = 2
                stack.pop()
                continue
            position, kid = step
            seen = state.get(kid.id)
            if seen == 1:
                closers.add((parent_id, position))
            elif seen is None:
                state[kid.id] = 1
                stack.append((kid.id, enumerate(placed[kid.id])))
    for parent_id, position in sorted(closers, reverse=True):
        del placed[parent_id][position]


def holding(placed: Placements, leaf_id: str) -> set[str]:
    """Ids whose placed subtree holds `leaf_id` (Pi's containsActive): each of them is
    walked first among its siblings."""
    above: dict[str, list[str]] = {}
    for parent_id, kids in placed.items():
        if parent_id is not None:
            for kid in kids:
                above.setdefault(kid.id, []).append(parent_id)
    found, todo = {leaf_id}, [leaf_id]
    while todo:
        for parent_id in above.get(todo.pop(), ()):
            if parent_id not in found:
                found.add(parent_id)
                todo.append(parent_id)
    return found
