"""The entry tree of one session: ids, parents, children, roots, leaf, labels and name.

Built incrementally: an appended entry costs O(1) in the common case. Rare shapes (a
duplicate id, an entry that adopts earlier orphans) trigger a full rebuild, which also finds
and breaks parentId cycles so that no walk over the tree can loop.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

from pitui.core.entry import Diagnostic, Entry
from pitui.core.timestamps import sort_key

_METADATA_TYPES = frozenset({"label", "session_info"})


@dataclass(frozen=True, slots=True)
class Label:
    text: str
    timestamp: object


class SessionTree:
    """Tree over a session's entries (file order, header excluded)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.entries: list[Entry] = []
        self.by_id: dict[str, Entry] = {}
        self.parent: dict[str, str | None] = {}  # effective parent, cycles broken
        self._children: dict[str | None, list[Entry]] | None = None  # built when first asked
        self.labels: dict[str, Label] = {}
        self.name: str | None = None
        self.diagnostics: list[Diagnostic] = []
        self._waiting: dict[str, list[Entry]] = {}  # orphans by the parent id they name
        self.extend(entries)

    # -- building ---------------------------------------------------------------------
    def extend(self, entries: Iterable[Entry]) -> None:
        """Add entries in file order. The loop is the hot path of loading a session."""
        by_id, parent, children, waiting = self.by_id, self.parent, self._children, self._waiting
        append = self.entries.append
        needs_rebuild = False
        for entry in entries:
            append(entry)
            if entry.type in _METADATA_TYPES:
                self._track_metadata(entry)
            if needs_rebuild:
                continue
            entry_id = entry.id
            if entry_id in by_id or entry_id in waiting:
                needs_rebuild = True  # a duplicate id, or a parent arriving after its children
                continue
            by_id[entry_id] = entry
            parent_id = entry.parent_id
            if parent_id is not None and parent_id != entry_id and parent_id not in by_id:
                waiting.setdefault(parent_id, []).append(entry)
                parent_id = None
            elif parent_id == entry_id:
                parent_id = None
            parent[entry_id] = parent_id
            if children is not None:
                _add_child(children, entry, parent_id)
        if needs_rebuild:
            self._rebuild()

    def _track_metadata(self, entry: Entry) -> None:
        if entry.type == "label":
            target = entry.raw.get("targetId")
            text = entry.raw.get("label")
            if isinstance(target, str):
                if isinstance(text, str) and text:
                    self.labels[target] = Label(text, entry.timestamp)
                else:
                    self.labels.pop(target, None)
        elif entry.type == "session_info":
            name = entry.raw.get("name")
            self.name = (name.strip() or None) if isinstance(name, str) else None

    @property
    def children(self) -> dict[str | None, list[Entry]]:
        """Children of each id (None: the roots, in file order), oldest first."""
        if self._children is None:
            children: dict[str | None, list[Entry]] = {None: []}
            nodes = sorted(self.by_id.values(), key=lambda e: e.index)
            for entry in nodes:
                children[entry.id] = []
            for entry in nodes:
                children[self.parent[entry.id]].append(entry)
            for parent_id, kids in children.items():
                if parent_id is not None and len(kids) > 1:
                    kids.sort(key=_child_key)
            self._children = children
        return self._children

    def _rebuild(self) -> None:
        self.by_id = {}
        self.parent = {}
        self._children = None
        self._waiting = {}
        self.diagnostics = [d for d in self.diagnostics if d.line]
        winners: dict[str, Entry] = {}
        for entry in self.entries:
            if entry.id in winners:
                self._note(entry, f"duplicate id {entry.id}: the later line wins")
            winners[entry.id] = entry
        self.by_id = winners
        nodes = sorted(winners.values(), key=lambda e: e.index)
        parents = {e.id: _named_parent(e, winners) for e in nodes}
        for broken in _cycle_breaks(nodes, parents):
            parents[broken.id] = None
            self._note(broken, f"parentId cycle through {broken.id} broken: shown as a root")
        for entry in nodes:
            self.parent[entry.id] = parents[entry.id]
            named = entry.parent_id
            orphan = named is not None and named != entry.id and named not in winners
            if parents[entry.id] is None and orphan:
                self._waiting.setdefault(named, []).append(entry)

    def _note(self, entry: Entry, reason: str) -> None:
        self.diagnostics.append(Diagnostic(0, entry.offset, f"{reason} (line {entry.line})"))

    # -- queries ----------------------------------------------------------------------
    @property
    def roots(self) -> list[Entry]:
        return self.children[None]

    @property
    def leaf(self) -> Entry | None:
        """The last entry in file order, as Pi's leaf on load."""
        return self.by_id.get(self.entries[-1].id) if self.entries else None

    def get(self, entry_id: str) -> Entry | None:
        return self.by_id.get(entry_id)

    def label_of(self, entry_id: str) -> str | None:
        label = self.labels.get(entry_id)
        return label.text if label else None

    def ancestors(self, entry_id: str) -> list[Entry]:
        """The entry and its ancestors, leaf first, up to its root."""
        by_id, parent = self.by_id, self.parent
        chain: list[Entry] = []
        current: str | None = entry_id
        while current is not None and (entry := by_id.get(current)) is not None:
            chain.append(entry)
            current = parent[current]
        return chain

    def path_to(self, entry_id: str) -> list[Entry]:
        """Root-first path to `entry_id`."""
        path = self.ancestors(entry_id)
        path.reverse()
        return path

    def active_path_ids(self) -> set[str]:
        leaf = self.leaf
        return {e.id for e in self.ancestors(leaf.id)} if leaf else set()


def _add_child(
    children: dict[str | None, list[Entry]], entry: Entry, parent_id: str | None
) -> None:
    children[entry.id] = []
    siblings = children[parent_id]
    if parent_id is None or not siblings:
        siblings.append(entry)  # roots stay in file order, as in Pi
    else:
        bisect.insort(siblings, entry, key=_child_key)


def _child_key(entry: Entry) -> tuple[float, int]:
    return (sort_key(entry.timestamp), entry.index)


def _named_parent(entry: Entry, by_id: dict[str, Entry]) -> str | None:
    parent_id = entry.parent_id
    if parent_id is None or parent_id == entry.id or parent_id not in by_id:
        return None
    return parent_id


def _cycle_breaks(nodes: list[Entry], parents: dict[str, str | None]) -> list[Entry]:
    """Entries whose parent link must be cut so that every entry reaches a root."""
    state: dict[str, int] = {}  # 1 = on the current walk, 2 = known to reach a root
    by_id = {e.id: e for e in nodes}
    breaks: list[Entry] = []
    for start in nodes:
        walk: list[str] = []
        current: str | None = start.id
        while current is not None and state.get(current) is None:
            state[current] = 1
            walk.append(current)
            current = parents[current]
        if current is not None and state[current] == 1:
            cycle = walk[walk.index(current) :]
            first = min((by_id[i] for i in cycle), key=lambda e: e.index)
            parents[first.id] = None
            breaks.append(first)
        for visited in walk:
            state[visited] = 2
    return breaks
