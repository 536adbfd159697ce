"""A flat row model of a session tree, laid out as Pi's /tree shows it.

Rows are the visible entries in display order: the branch holding the active leaf first at
every branch point, flat runs for single-child chains, indentation only at branch points,
tree guides (`├─ `, `│  `, `└─ `), the active path marked. Filters (`filters.py`) hide
entries as Pi's do, and a hidden entry's visible descendants hang under its nearest visible
ancestor. Folding hides a row's descendants. Search is `search.py`'s, Pi's walking order
`order.py`'s, and `extend()` (appending in O(1) on the leaf) the `append.py` mixin's.

Everything is iterative (no recursion), so 100,000-deep chains are fine.
"""

from __future__ import annotations

from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.rows.append import AppendRows
from pitui.core.rows.filters import EVERYTHING, FILTERS, check_filter, passes
from pitui.core.rows.order import Walked, walk, walk_shown
from pitui.core.rows.row import GuideMemo, Row, place
from pitui.core.rows.row_text import entry_tool_calls
from pitui.core.rows.search import RowSearch
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.collector import collector_paused
from pitui.core.session.entry import Entry
from pitui.core.session.line_facts import line_facts
from pitui.core.session.prefetch import each_line
from pitui.core.session.tree import SessionTree

__all__ = ["FILTERS", "TreeRows", "walk"]


class TreeRows(AppendRows):
    """Visible rows of `tree` under a filter, with folding, search and incremental append."""

    def __init__(self, tree: SessionTree, filter: str = "default") -> None:
        self.tree = tree
        self._filter = check_filter(filter)
        self._folded: set[str] = set()
        self._calls = ToolCallMap()
        self._assistants_read = 0  # tree entries whose text flag and tool calls are known
        self.label_times = False  # Pi's Shift+T: the time of each label after it
        self.version = 0  # counts the changes of `rows` (what search keeps must fit them)
        self._search = RowSearch()
        self.rebuild()

    # -- public state -------------------------------------------------------------------
    @property
    def filter(self) -> str:
        return self._filter

    def __len__(self) -> int:
        return len(self.rows)

    def set_filter(self, mode: str) -> None:
        """Switch filter; as in Pi, folds are cleared."""
        self._filter = check_filter(mode)
        self._folded.clear()
        self.rebuild()

    def cycle_filter(self, step: int = 1) -> str:
        """Pi's Ctrl+O order: default → no-tools → user-only → labeled-only → all."""
        index = FILTERS.index(self._filter) if self._filter in FILTERS else 0
        self.set_filter(FILTERS[(index + step) % len(FILTERS)])
        return self._filter

    def index_of(self, entry_id: str) -> int | None:
        """Row index of an entry, or None when it is not shown."""
        if self._pos is None:
            self._pos = {row.entry.id: i for i, row in enumerate(self.rows)}
        return self._pos.get(entry_id)

    def nearest_index(self, entry_id: str | None) -> int | None:
        """Row of the entry or of its nearest shown ancestor (Pi's findNearestVisibleIndex)."""
        if not self.rows:
            return None
        for entry in self.tree.ancestors(entry_id) if entry_id else ():
            index = self.index_of(entry.id)
            if index is not None:
                return index
        return len(self.rows) - 1

    def row_of(self, entry_id: str) -> Row | None:
        """The row of an entry that passes the filter (shown, or hidden by a fold)."""
        return self._row_of.get(entry_id)

    # -- building -------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Full rebuild, O(n). The cyclic GC is paused: it would rescan the new rows often."""
        with collector_paused():
            self._rebuild()

    def _rebuild(self) -> None:
        self.guide_memo = GuideMemo()
        tree = self.tree
        leaf = tree.leaf
        self._leaf_id = leaf.id if leaf else None
        self._count = len(tree.entries)
        self._unique = len(tree.by_id)
        if self._filter != EVERYTHING:  # which assistants say nothing decides what shows
            self._read_assistants()
        self._order = self._flatten(walk_shown(tree, self._filter))
        self._row_of = {row.entry.id: row for row in self._order}
        roots = [row for row in self._order if row.parent is None]
        self.multiple_roots = len(roots) > 1
        for root in roots[:-1]:
            root.is_last = False
        for row in self._order:
            place(row, self.multiple_roots)
        # the active path leads the order (a repeated id may show active rows later too)
        order = self._order
        self._active_len = next(
            (i for i, row in enumerate(order) if not row.on_active_path), len(order)
        )
        self._folded &= self._row_of.keys()
        for entry_id in self._folded:
            self._row_of[entry_id].folded = True
        self._anchor = self._find_anchor()
        self._refresh_rows()
        self.changed_from: int | None = 0

    def _flatten(self, walked: Walked) -> list[Row]:
        """A row for each entry walked, those on the active path marked."""
        leaf_id, active = self._leaf_id, walked.active
        order: list[Row] = []
        append = order.append
        for entry, at in zip(walked.entries, walked.parents, strict=True):
            parent = order[at] if at >= 0 else None
            row = Row(self, entry, parent)
            if entry.id in active:
                row.on_active_path = True
                row.is_leaf_marker = entry.id == leaf_id
            if parent is not None:
                parent.kids.append(row)
            append(row)
        return order

    def _find_anchor(self) -> Row | None:
        """Nearest row at or above the leaf: where an entry appended to the leaf will hang."""
        for entry in self.tree.ancestors(self._leaf_id) if self._leaf_id else ():
            row = self._row_of.get(entry.id)
            if row is not None:
                return row
        return None

    def _refresh_rows(self) -> None:
        """Rows = order minus descendants of folded rows."""
        order, rows = self._order, []
        i, n = 0, len(order)
        while i < n:
            row = order[i]
            rows.append(row)
            i += 1
            if row.folded:
                level = row.level
                while i < n and order[i].level > level:
                    i += 1
        self.rows: list[Row] = rows
        self.version += 1
        self._pos: dict[str, int] | None = None
        active = range(self._active_len)  # the active path is a prefix of the order
        self._active_fold = next((i for i in active if order[i].folded), None)
        self.changed_from = 0

    # -- filtering ------------------------------------------------------------------------
    def _passes(self, entry: Entry, leaf_id: str | None) -> bool:
        return passes(entry, self._filter, leaf_id, self.tree.labels)

    # -- folding --------------------------------------------------------------------------
    def fold(self, entry_id: str) -> bool:
        row = self._row_of.get(entry_id)
        if row is None or row.folded or not row.foldable:
            return False
        return self._set_folds([row], True)

    def unfold(self, entry_id: str) -> bool:
        row = self._row_of.get(entry_id)
        return row is not None and row.folded and self._set_folds([row], False)

    def toggle_fold(self, entry_id: str) -> bool:
        row = self._row_of.get(entry_id)
        return row is not None and (self.unfold(entry_id) if row.folded else self.fold(entry_id))

    def fold_all(self) -> bool:
        """Fold every branch (each foldable row below a branch point; roots too if several)."""
        rows = [r for r in self._order if r.foldable and not r.folded]
        if not self.multiple_roots:
            rows = [r for r in rows if r.parent is not None]
        return bool(rows) and self._set_folds(rows, True)

    def unfold_all(self) -> bool:
        rows = [self._row_of[i] for i in self._folded]
        return bool(rows) and self._set_folds(rows, False)

    def unfold_to(self, entry_id: str) -> bool:
        """Unfold the folded branches that hide `entry_id`'s row."""
        ids = {entry.id for entry in self.tree.ancestors(entry_id)} - {entry_id}
        rows = [self._row_of[i] for i in self._folded if i in ids]
        return bool(rows) and self._set_folds(rows, False)

    def _set_folds(self, rows: list[Row], folded: bool) -> bool:
        for row in rows:
            row.folded = folded
            row._invalidate()
            (self._folded.add if folded else self._folded.discard)(row.entry.id)
        self._refresh_rows()
        return True

    # -- search ---------------------------------------------------------------------------
    def search(self, text: str) -> list[int]:
        """Indices of rows whose text, as Pi's /tree search sees it (label, role, content,
        command...), holds every whitespace-separated token, case-insensitively."""
        return self._search.search(self.rows, self.version, text)

    def prepare_search(self) -> None:
        """Work out what search looks in for every row (the slow part of a large session's
        first search), if not done yet: a search started meanwhile waits for it."""
        self._search.prepare(self.rows, self.version)

    # -- navigation helpers -----------------------------------------------------------------
    def parent_index(self, index: int) -> int | None:
        parent = self.rows[index].parent if 0 <= index < len(self.rows) else None
        return self.index_of(parent.entry.id) if parent else None

    def segment_start(self, index: int, direction: str) -> int:
        """Pi's findBranchSegmentStart: Ctrl+Left ("up") / Ctrl+Right ("down") targets."""
        if not 0 <= index < len(self.rows):
            return index
        row = self.rows[index]
        if direction == "down":
            while not row.folded and len(row.kids) == 1:
                row = row.kids[0]
            if not row.folded and row.kids:
                row = row.kids[0]
        else:
            while row.parent is not None:
                if len(row.parent.kids) > 1 and row is not self.rows[index]:
                    break
                row = row.parent
        found = self.index_of(row.entry.id)
        return index if found is None else found

    # -- text -----------------------------------------------------------------------------
    def tool_calls(self) -> dict[Any, str]:
        """How each tool call shows (`[read: path]`), by call id, as Pi's toolCallMap."""
        self._read_assistants()
        return self._calls.texts

    def _read_assistants(self) -> None:
        """Text flags and tool calls of the assistant entries not read yet, from one read
        of their lines, which are not kept (they are most of a session's memory)."""
        tree = self.tree
        entries = tree.entries
        start, self._assistants_read = self._assistants_read, len(entries)
        if start == len(entries):
            return
        message = EntryType.MESSAGE  # bound once: the test runs per entry
        assistants = [e for e in entries[start:] if e.type == message and e.role == "assistant"]
        for entry, line in each_line(assistants):
            facts = None if line is None else line_facts(line, entry.raw_id)
            if facts is not None:
                entry.set_text_flag(facts.has_text)
            if tree.by_id.get(entry.id) is entry:  # a line whose id a later one took is no node
                self._calls.add(
                    entry, entry_tool_calls(entry) if facts is None else facts.tool_calls
                )
        if self._calls.has_repeats:
            self._calls.settle(walk(tree))
