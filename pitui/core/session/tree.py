"""The entry tree of one session: ids, parents, children, roots, leaf, labels and name.

Built incrementally: an appended entry costs O(1) in the common case. Rare shapes (a
duplicate id, an entry that adopts earlier orphans) trigger a full rebuild, which also finds
and breaks parentId cycles so that no walk over the tree can loop.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter
from typing import TypeGuard

from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import js_string, js_trim, js_truthy
from pitui.core.format.timestamps import sort_key
from pitui.core.session.entry import Diagnostic, Entry
from pitui.core.session.placements import Placements, holding, pi_placements
from pitui.core.session.prefetch import prefetch_raw
from pitui.core.session.reader import NO_ID, BatchLinks

_METADATA_TYPES = frozenset({EntryType.LABEL, EntryType.SESSION_INFO})
_INDEX = attrgetter("index")
_TYPE = attrgetter("type")


@dataclass(frozen=True, slots=True)
class Label:
    text: str
    timestamp: object


class SessionTree:
    """Tree over a session's entries (file order, header excluded)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.entries: list[Entry] = []
        self.by_id: dict[str, Entry] = {}
        self._cut: set[str] = set()  # ids whose parent link was cut to break a cycle
        self._children: dict[str | None, list[Entry]] | None = None  # built when first asked
        self.labels: dict[str, Label] = {}
        self.name: str | None = None
        self.diagnostics: list[Diagnostic] = []
        self._waiting: dict[str, list[Entry]] = {}  # orphans by the parent id they name
        # Indices where a run of entries, each the child of the one before, starts; None
        # once the tree was rebuilt (an id repeats, a parent came late, a cycle was cut):
        # runs then prove nothing.
        self._run_starts: list[int] | None = []
        self._non_messages: list[Entry] = []  # file order
        self._placements: tuple[int, Placements] | None = None  # (entry count, placements)
        self.extend(entries)

    # -- building ---------------------------------------------------------------------
    def extend(self, entries: Iterable[Entry], links: BatchLinks | None = None) -> None:
        """Add entries in file order (`links`: what the reader learnt about them)."""
        batch = entries if isinstance(entries, list) else list(entries)
        if links is None or len(links.by_id) != len(batch):
            links = links_of(batch)  # some entries were parsed whole, or ids repeat
        self._note_runs(batch, links)
        if self._children is not None or self._waiting:
            self._link_one_by_one(batch)
        elif not self._link_plain_batch(batch, links):
            self._rebuild()
        self._non_messages.extend(links.non_messages)
        metadata = [e for e in links.non_messages if e.type in _METADATA_TYPES]
        prefetch_raw(metadata)
        for entry in metadata:
            self._track_metadata(entry)

    def _note_runs(self, batch: list[Entry], links: BatchLinks) -> None:
        starts = self._run_starts
        if starts is None or not batch:
            return
        first = len(self.entries)
        in_place = batch[0].index == first and batch[-1].index == first + len(batch) - 1
        if len(links.by_id) != len(batch) or None in links.by_id or not in_place:
            self._run_starts = None
        else:
            starts.extend(links.starts)

    def _link_plain_batch(self, batch: list[Entry], links: BatchLinks) -> bool:
        """Link a plain batch in bulk, the hot path of loading a large session: every entry
        has a new, unique id and a parent that is absent or came before it. False when the
        batch is not plain; then only `_rebuild()` puts the tree right."""
        by_id = self.by_id
        self.entries.extend(batch)
        new = links.by_id
        if len(new) != len(batch) or not _all_written(new) or not by_id.keys().isdisjoint(new):
            return False
        if not all(e.parent_id is None or e.parent_id in by_id for e in links.unlinked):
            return False
        if by_id:
            by_id.update(new)
        else:
            self.by_id = new
        return True

    def _link_one_by_one(self, batch: list[Entry]) -> None:
        by_id, children, waiting = self.by_id, self._children, self._waiting
        self.entries.extend(batch)
        for entry in batch:
            entry_id = entry.id
            if entry_id in by_id or entry_id in waiting:
                self._rebuild()  # a duplicate id, or a parent arriving after its children
                return
            by_id[entry_id] = entry
            parent_id = entry.parent_id
            if parent_id is not None and parent_id != entry_id and parent_id not in by_id:
                waiting.setdefault(parent_id, []).append(entry)
            if children is not None:
                _add_child(children, entry, self.parent_of(entry_id))

    def _track_metadata(self, entry: Entry) -> None:
        if entry.type == EntryType.LABEL:
            target = entry.raw.get("targetId")
            text = entry.raw.get("label")
            if isinstance(target, str):  # Pi keeps any truthy label, as String() shows it
                if js_truthy(text):
                    self.labels[target] = Label(js_string(text), entry.timestamp)
                else:
                    self.labels.pop(target, None)
        elif entry.type == EntryType.SESSION_INFO:
            name = entry.raw.get("name")
            self.name = (js_trim(name) or None) if isinstance(name, str) else None

    @property
    def children(self) -> dict[str | None, list[Entry]]:
        """Children of each id (None: the roots, in file order), oldest first."""
        if self._children is None and self._run_starts is not None:
            self._children = self._children_by_runs(self._run_starts)
        if self._children is None:
            children: dict[str | None, list[Entry]] = {None: []}
            nodes = list(self.by_id.values())
            if self._run_starts is None:  # else every id is new and came in file order
                nodes.sort(key=_INDEX)
            for entry in nodes:
                children[entry.id] = []
            by_id, cut, roots = self.by_id, self._cut, children[None]
            for entry in nodes:  # parent_of(), inlined: this runs once per entry
                named = entry.parent_id
                parent = None if named is None else by_id.get(named)
                if parent is None or parent is entry or (cut and entry.id in cut):
                    roots.append(entry)
                else:
                    children[named].append(entry)
            for parent_id, kids in children.items():
                if parent_id is not None and len(kids) > 1:
                    kids.sort(key=_child_key)
            self._children = children
        return self._children

    def _children_by_runs(self, starts: list[int]) -> dict[str | None, list[Entry]]:
        """`children` when every id is new and came in file order: inside a run each entry
        is the only child so far of the one before it, so only a run's first entry needs
        its parent looked up (and only parents given such a child can have several)."""
        entries, by_id = self.entries, self.by_id
        kids = [[kid] for kid in islice(entries, 1, None)]  # each entry's, the next one...
        if entries:
            kids.append([])  # (the last entry's)
        for index in starts:
            if index:
                kids[index - 1] = []  # ...but where a run starts
        ids = [e.id for e in entries]
        children: dict[str | None, list[Entry]] = dict(zip(ids, kids, strict=True))
        roots: list[Entry] = []
        children[None] = roots
        branched: set[str | None] = set()
        for index in starts:
            entry = entries[index]
            named = entry.parent_id
            parent = None if named is None else by_id.get(named)
            if parent is None or parent is entry:
                roots.append(entry)
            else:
                children[named].append(entry)
                branched.add(named)
        for parent_id in branched:
            if len(siblings := children[parent_id]) > 1:
                siblings.sort(key=_child_key)
        return children

    @property
    def has_duplicates(self) -> bool:
        """Some id is carried by more than one line."""
        return len(self.by_id) != len(self.entries)

    @property
    def placements(self) -> Placements:
        """Children as Pi's /tree shows them: as `children`, except that an id carried by
        several lines shows under the parent of each (see `placements.py`)."""
        if not self.has_duplicates:
            return self.children
        if self._placements is None or self._placements[0] != len(self.entries):
            placements = pi_placements(self.entries, self.by_id, self.parent_of)
            self._placements = (len(self.entries), placements)
        return self._placements[1]

    def _rebuild(self) -> None:
        self.by_id = {}
        self._cut = set()
        self._run_starts = None
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
            self._cut.add(broken.id)
            self._note(broken, f"parentId cycle through {broken.id} broken: shown as a root")
        for entry in nodes:
            named = entry.parent_id
            if named is None or parents[entry.id] is not None:
                continue
            if named != entry.id and named not in winners:  # an orphan, for now
                self._waiting.setdefault(named, []).append(entry)

    def _note(self, entry: Entry, reason: str) -> None:
        self.diagnostics.append(Diagnostic(0, entry.offset, f"{reason} (line {entry.line})"))

    # -- queries ----------------------------------------------------------------------
    @property
    def cycle_breaks(self) -> frozenset[str]:
        """Ids whose parent link was cut, as it closed a cycle."""
        return frozenset(self._cut)

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

    def parent_of(self, entry_id: str) -> str | None:
        """The id of an entry's parent in the tree: None for a root, an orphan, a
        self-parent or an entry whose link was cut to break a cycle."""
        entry = self.by_id.get(entry_id)
        parent = self._parent(entry) if entry is not None else None
        return None if parent is None else parent.id

    def _parent(self, entry: Entry) -> Entry | None:
        named = entry.parent_id
        if named is None or (self._cut and entry.id in self._cut):
            return None
        parent = self.by_id.get(named)
        return None if parent is entry else parent

    def ancestors(self, entry_id: str) -> list[Entry]:
        """The entry and its ancestors, leaf first, up to its root."""
        starts, entries = self._run_starts, self.entries
        if starts is None:
            return self._ancestors_one_by_one(entry_id)
        chain: list[Entry] = []
        entry = self.by_id.get(entry_id)
        while entry is not None:
            end = entry.index
            if end >= len(entries) or entries[end] is not entry:
                return self._ancestors_one_by_one(entry_id)
            start = starts[bisect.bisect_right(starts, end) - 1]
            chain.extend(entries[end : start - 1 if start else None : -1])
            entry = self._parent(entries[start])
        return chain

    def _ancestors_one_by_one(self, entry_id: str) -> list[Entry]:
        by_id, cut = self.by_id, self._cut
        chain: list[Entry] = []
        entry = by_id.get(entry_id)
        while entry is not None:  # _parent(), inlined: a context walks the whole path
            chain.append(entry)
            named = entry.parent_id
            if named is None or (cut and entry.id in cut):
                break
            parent = by_id.get(named)
            entry = None if parent is entry else parent
        return chain

    def path_to(self, entry_id: str) -> list[Entry]:
        """Root-first path to `entry_id`."""
        path = self.ancestors(entry_id)
        path.reverse()
        return path

    def last_of_type(self, path: list[Entry], kind: str) -> int | None:
        """Index in `path` (root first) of its last entry of type `kind`, not a message."""
        if self._run_starts is None:  # a parent may follow its child: scan the path
            try:
                return len(path) - 1 - operator.indexOf(map(_TYPE, reversed(path)), kind)
            except ValueError:
                return None
        # Every parent comes before its child, so a path is in file order and each entry
        # of that type, last first, is looked for in it by halves.
        for entry in reversed(self._non_messages):
            if entry.type == kind:
                at = bisect.bisect_left(path, entry.index, key=_INDEX)
                if at < len(path) and path[at] is entry:
                    return at
        return None

    def active_path_ids(self) -> set[str]:
        leaf = self.leaf
        return {e.id for e in self.ancestors(leaf.id)} if leaf else set()

    def leaf_holders(self) -> set[str]:
        """Ids whose subtree in `placements` holds the leaf (walked first, as in Pi): the
        active path, plus with a repeated id every other placement leading to the leaf."""
        leaf = self.leaf
        if leaf is None or not self.has_duplicates:
            return self.active_path_ids()
        return holding(self.placements, leaf.id)


def links_of(batch: list[Entry]) -> BatchLinks:
    """The links of entries the reader did not decode itself."""
    links = BatchLinks()
    by_id, unlinked, starts, previous = links.by_id, links.unlinked, links.starts, NO_ID
    message = EntryType.MESSAGE  # bound once: the test runs per entry
    links.non_messages.extend(e for e in batch if e.type != message)
    for entry in batch:
        if (parent_id := entry.parent_id) != previous:
            starts.append(entry.index)
            if parent_id not in by_id:
                unlinked.append(entry)
        previous = entry.raw_id
        by_id[previous] = entry
    return links


def _all_written(by_id: dict[str | None, Entry]) -> TypeGuard[dict[str, Entry]]:
    """Every entry of a batch has the id it was written with (no `None` key)."""
    return None not in by_id


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
