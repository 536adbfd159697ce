"""Threaded order: sessions nested under the session whose path is their `parentSessionPath`."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field

from pitui.core.catalog.summary import SessionSummary


@dataclass(frozen=True)
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
    return _normal(path) if isinstance(path, str) and path else ""


@functools.lru_cache(maxsize=65536)  # every listing asks again for the same paths
def _normal(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


def _time(s: SessionSummary) -> float:
    return float(s.modified_ms) if s.modified_ms is not None else float("-inf")


def _build(sessions: list[SessionSummary]) -> list[_Node]:
    nodes = {_key(s.path): _Node(s, latest=_time(s)) for s in sessions}
    roots: list[_Node] = []
    for s in sessions:
        node, parent = nodes[_key(s.path)], nodes.get(_key(s.parent_session_path))
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
    rows: list[CatalogRow] = []
    roots = _build(sessions)
    seen: set[int] = set()
    _walk(roots, rows, seen)
    if len(seen) < len(sessions):
        lost = [s for s in sessions if id(s) not in seen]
        _walk([_Node(s) for s in lost], rows, seen)
    return rows


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
