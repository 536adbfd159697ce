"""Threaded order: sessions nested under the session whose path is their `parentSessionPath`."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from pitui.core.catalog.summary import SessionSummary


@dataclass
class CatalogRow:
    """One picker row. `ancestors_last[i]`: whether the ancestor at depth i+1 was a last child
    (draw "   " there, else "│  "); the row's own guide is "└─ " if `is_last_child` else "├─ "."""

    summary: SessionSummary
    depth: int = 0
    is_last_child: bool = True
    ancestors_last: tuple[bool, ...] = ()

    def guide(self) -> str:
        if self.depth == 0:
            return ""
        parts = ["   " if last else "│  " for last in self.ancestors_last]
        return "".join(parts) + ("└─ " if self.is_last_child else "├─ ")


@dataclass
class _Node:
    summary: SessionSummary
    children: list[_Node] = field(default_factory=list)
    latest: float = 0.0


def _key(path: object) -> str:
    if not isinstance(path, str) or not path:
        return ""
    try:
        return _normal_paths[path]
    except KeyError:
        if len(_normal_paths) >= NORMAL_PATHS_KEPT:
            _normal_paths.clear()
        key = _normal_paths[path] = os.path.normpath(os.path.abspath(path))
        return key


# Every listing asks again for the same paths: kept in a dict (the keys of 20,000 sessions,
# a search: 3.5-9 ms, where an LRU cache's bookkeeping on each hit made them 11-12 ms).
NORMAL_PATHS_KEPT = 262_144
_normal_paths: dict[str, str] = {}


def _build(sessions: list[SessionSummary], keys: list[str]) -> list[_Node]:
    nodes = {key: _Node(s, latest=s.order_times[0]) for key, s in zip(keys, sessions, strict=True)}
    roots: list[_Node] = []
    for key, s in zip(keys, sessions, strict=True):
        node, parent = nodes[key], nodes.get(_key(s.parent_session_path))
        (parent.children if parent is not None and parent is not node else roots).append(node)
    for root in roots:
        _latest(root, set())
    _sort(roots)
    return roots


def _latest(node: _Node, seen: set[int]) -> float:
    seen.add(id(node))
    for child in node.children:
        if id(child) not in seen:
            node.latest = max(node.latest, _latest(child, seen))
    return node.latest


def _sort(nodes: list[_Node]) -> None:
    stack = [nodes]
    while stack:
        group = stack.pop()
        group.sort(key=lambda n: -n.latest)
        stack.extend(n.children for n in group)


def threaded_rows(sessions: list[SessionSummary]) -> list[CatalogRow]:
    """Pi's `buildSessionTree` + `flattenSessionTree` (sessions newest first in, stable).

    Unlike Pi, sessions caught in a `parentSession` cycle are not lost: they become roots.
    """
    keys = [_key(s.path) for s in sessions]
    if _all_roots(sessions, keys):
        return _root_rows(sessions)
    return _tree_rows(sessions, keys)


def _tree_rows(sessions: list[SessionSummary], keys: list[str]) -> list[CatalogRow]:
    rows: list[CatalogRow] = []
    roots = _build(sessions, keys)
    seen: set[int] = set()
    _walk(roots, rows, seen)
    if len(seen) < len(sessions):
        lost = [s for s in sessions if id(s) not in seen]
        _walk([_Node(s) for s in lost], rows, seen)
    return rows


def _all_roots(sessions: list[SessionSummary], keys: list[str]) -> bool:
    """No session is listed twice, and none's parent is listed: the common case, where the
    tree is the sessions themselves (a third of the time of building it at 10,000)."""
    listed = set(keys)
    if len(listed) != len(keys):
        return False
    parents = (s.parent_session_path for s in sessions if s.parent_session_path)
    return not any(_key(parent) in listed for parent in parents)


def _root_rows(sessions: list[SessionSummary]) -> list[CatalogRow]:
    """The rows `_walk` gives when every session is a root: newest first, as `_sort`.

    Rows are never changed, so the last call's rows are given again where they fit: the
    picker lists every session again each second while pi writes, and 20,000 new rows each
    time brought one of the collector's full passes every third time (at 20,000 sessions,
    the rows 52-58 -> 28-41 ms a time in the app, the full passes 9 -> 2 in 30 s)."""
    global _last_roots
    ordered = sorted(sessions, key=lambda s: -s.order_times[0])
    last = len(ordered) - 1
    before, kept = _last_roots, {}
    rows: list[CatalogRow] = []
    for i, s in enumerate(ordered):
        row = before.get(id(s))  # it holds its summary, so no other object has that id
        if row is None or row.summary is not s or row.is_last_child != (i == last):
            row = CatalogRow(s, 0, i == last)
        kept[id(s)] = row
        rows.append(row)
    _last_roots = kept
    return rows


_last_roots: dict[int, CatalogRow] = {}  # the last `_root_rows`, by id of their summaries


def _walk(roots: list[_Node], rows: list[CatalogRow], seen: set[int]) -> None:
    stack = [(root, 0, (), i == len(roots) - 1) for i, root in enumerate(roots)][::-1]
    while stack:
        node, depth, ancestors, is_last = stack.pop()
        if id(node.summary) in seen:
            continue
        seen.add(id(node.summary))
        rows.append(CatalogRow(node.summary, depth, is_last, ancestors))
        below = (*ancestors, is_last or depth == 0) if depth > 0 else ancestors
        below = (*ancestors, True) if depth == 0 else below
        count = len(node.children)
        for i in range(count - 1, -1, -1):
            stack.append((node.children[i], depth + 1, below, i == count - 1))


def flat_rows(sessions: list[SessionSummary]) -> list[CatalogRow]:
    return [CatalogRow(s) for s in sessions]
