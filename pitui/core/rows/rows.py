"""A flat row model of a session tree, laid out as Pi's /tree shows it.

Rows are the visible entries in display order: the branch holding the active leaf first at
every branch point, flat runs for single-child chains, indentation only at branch points,
tree guides (`├─ `, `│  `, `└─ `), the active path marked. Filters hide entries as Pi's
`default | no-tools | user-only | labeled-only | all` do, and a hidden entry's visible
descendants hang under its nearest visible ancestor. Folding hides a row's descendants.

Everything is iterative (no recursion), so 100,000-deep chains are fine. `extend()` appends the
common live case (an entry whose parent is the leaf) in O(1) amortised; other shapes rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pitui.core.format.jsvalues import JS_SPACE_RUN
from pitui.core.rows.row import GuideMemo, Row, place
from pitui.core.rows.row_text import (
    entry_tool_calls,
    is_silent,
    searchable_text,
)
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.collector import collector_paused
from pitui.core.session.entry import Entry
from pitui.core.session.light import line_facts
from pitui.core.session.prefetch import each_line
from pitui.core.session.tree import SessionTree

FILTERS: tuple[str, ...] = ("default", "no-tools", "user-only", "labeled-only", "all")
_EVERYTHING = "everything"  # internal: every entry, usage and tool-only assistants included
_SETTINGS = frozenset(
    {"label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"}
)


class TreeRows:
    """Visible rows of `tree` under a filter, with folding, search and incremental append."""

    def __init__(self, tree: SessionTree, filter: str = "default") -> None:
        self.tree = tree
        self._filter = _check_filter(filter)
        self._folded: set[str] = set()
        self._calls = ToolCallMap()
        self._assistants_read = 0  # tree entries whose text flag and tool calls are known
        self.label_times = False  # Pi's Shift+T: the time of each label after it
        self.rebuild()

    # -- public state -------------------------------------------------------------------
    @property
    def filter(self) -> str:
        return self._filter

    def __len__(self) -> int:
        return len(self.rows)

    def set_filter(self, mode: str) -> None:
        """Switch filter; as in Pi, folds are cleared."""
        self._filter = _check_filter(mode)
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
        self._read_assistants()
        active = tree.active_path_ids()
        self._order = self._flatten(active, tree.leaf_holders() if tree.has_duplicates else active)
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

    def _flatten(self, active: set[str], first: set[str]) -> list[Row]:
        """Pre-order walk, the branch holding the leaf (`first`) first; rows only for entries
        passing the filter; those on the active path marked."""
        children, leaf_id, passes = self.tree.placements, self._leaf_id, self._passes
        order: list[Row] = []
        stack: list[tuple[Entry, Row | None]] = [
            (root, None) for root in reversed(_active_first(children[None], first))
        ]
        # A repeated id shows its subtree once per placement, as in Pi; nested repeats could
        # multiply rows without end, so repeats stop expanding past a generous budget.
        expanded: set[str] | None = set() if self.tree.has_duplicates else None
        visits, budget = 0, 4 * len(self.tree.entries) + 10_000
        pop, push = stack.pop, stack.append
        while stack:
            entry, parent = pop()
            entry_id = entry.id
            visits += 1
            if passes(entry, leaf_id):
                row = Row(self, entry, parent)
                if entry_id in active:
                    row.on_active_path = True
                    row.is_leaf_marker = entry_id == leaf_id
                if parent is not None:
                    parent.kids.append(row)
                order.append(row)
                parent = row
            kids = children.get(entry_id)
            if not kids:
                continue
            if expanded is not None:
                if entry_id in expanded and visits + len(stack) > budget:
                    continue
                expanded.add(entry_id)
            if len(kids) == 1:
                push((kids[0], parent))
            else:
                stack.extend((kid, parent) for kid in reversed(_active_first(kids, first)))
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
        self._pos: dict[str, int] | None = None
        active = range(self._active_len)  # the active path is a prefix of the order
        self._active_fold = next((i for i in active if order[i].folded), None)
        self.changed_from = 0

    # -- filtering ------------------------------------------------------------------------
    def _passes(self, entry: Entry, leaf_id: str | None) -> bool:
        kind, mode = entry.type, self._filter
        if mode == _EVERYTHING:
            return True
        if kind == "usage":
            return False
        role = entry.role
        if role == "assistant" and kind == "message" and entry.id != leaf_id and is_silent(entry):
            return False
        if mode == "user-only":
            return kind == "message" and role == "user"
        if mode == "labeled-only":
            return entry.id in self.tree.labels
        if mode == "all":
            return True
        if kind in _SETTINGS:
            return False
        return not (mode == "no-tools" and kind == "message" and role == "toolResult")

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
        tokens = [token for token in JS_SPACE_RUN.split(text.lower()) if token]
        if not tokens:
            return []
        self._prepare_search(self.rows)
        found = []
        for index, row in enumerate(self.rows):
            haystack = row.search_text()
            if all(token in haystack for token in tokens):
                found.append(index)
        return found

    def _prepare_search(self, rows: list[Row]) -> None:
        """What search looks in, for every row, from a few large reads of their lines."""
        pending = {id(r.entry): r for r in rows if r._search is None}
        for entry, line in each_line(row.entry for row in pending.values()):
            raw = entry.raw if line is None else entry.raw_of_line(line)
            pending[id(entry)]._search = searchable_text(entry, raw).lower()

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

    # -- appending ------------------------------------------------------------------------
    def catch_up(self) -> int | None:
        """Take in the entries the tree gained since these rows were built or extended."""
        new = self.tree.entries[self._count :]
        return self.extend(new) if new else None

    def extend(self, entries: Iterable[Entry]) -> int | None:
        """Update after `tree.extend(entries)`. Returns the first row index that changed (rows
        before it are untouched), or None if no row changed."""
        entries = list(entries)
        tree = self.tree
        self.changed_from = None
        fits = len(tree.entries) == self._count + len(entries)
        if tree.has_duplicates or not (fits and len(tree.by_id) == self._unique + len(entries)):
            self.rebuild()
            return self.changed_from
        for entry in entries:
            if not self._append(entry):
                self.rebuild()
                return self.changed_from
            self._count += 1
            self._unique += 1
        return self.changed_from

    def _append(self, entry: Entry) -> bool:
        tree, old_leaf = self.tree, self._leaf_id
        if old_leaf is None or tree.parent_of(entry.id) != old_leaf or tree.children.get(entry.id):
            return False
        if entry.type == "label" and self._filter == "labeled-only":
            return False
        old = self._row_of.get(old_leaf)
        old_stays = old is not None and self._passes(old.entry, entry.id)
        shown = self._passes(entry, entry.id)
        if old is not None and not old_stays:
            done = self._drop_old_leaf(old, entry if shown else None)
        else:
            done = not shown or self._add_under_anchor(entry)
        if done:
            self._after_append(old, entry)
        return done

    def _drop_old_leaf(self, old: Row, entry: Entry | None) -> bool:
        """The old leaf (a tool-call-only assistant shown only as leaf) hides; `entry`, if
        shown, takes its place, else the row goes away."""
        if old.kids or (entry is None and (old.parent is None or len(old.parent.kids) != 1)):
            return False
        del self._row_of[old.entry.id]
        if entry is None:
            old.parent.kids.clear()  # type: ignore[union-attr]
            old.parent._invalidate()  # type: ignore[union-attr]
            self._replace_at(old, None)
            self._anchor = old.parent
            return True
        row = Row(self, entry, old.parent)
        for name in ("indent", "depth", "connector", "just_branched", "is_last", "gutters"):
            setattr(row, name, getattr(old, name))
        if old.parent is not None:
            kids = old.parent.kids
            kids[kids.index(old)] = row
        self._replace_at(old, row)
        return True

    def _add_under_anchor(self, entry: Entry) -> bool:
        parent = self._anchor
        if parent is None or parent.kids:
            return False
        row = Row(self, entry, parent)
        parent.kids.append(row)
        parent._invalidate()
        place(row, self.multiple_roots)
        self._insert_after(parent, row)
        return True

    def _after_append(self, old: Row | None, entry: Entry) -> None:
        if old is not None:
            old.is_leaf_marker = False
        row = self._row_of.get(entry.id)
        if row is not None:
            row.on_active_path = row.is_leaf_marker = True
            self._anchor = row
        self._leaf_id = entry.id
        if entry.type == "label":
            target = self._row_of.get(str(entry.raw.get("targetId")))
            if target is not None:
                target.label = self.tree.label_of(target.entry.id)
                self._mark_changed(self.index_of(target.entry.id))

    def _anchor_index(self) -> int | None:
        """Row index of the anchor (the last active row), None if a fold hides it."""
        at = self._active_len - 1
        return at if self._active_fold is None or self._active_fold == at else None

    def _insert_after(self, parent: Row, row: Row) -> None:
        self._row_of[row.entry.id] = row
        index = self._anchor_index()
        self._order.insert(self._active_len, row)
        self._active_len += 1
        if index is None or parent.folded:
            return  # hidden by a fold
        self._mark_changed(index)
        self._list_insert(index + 1, row)

    def _replace_at(self, old: Row, row: Row | None) -> None:
        index = self._anchor_index()
        at = self._active_len - 1
        if row is None:
            del self._order[at]
            self._active_len -= 1
        else:
            self._order[at] = row
            self._row_of[row.entry.id] = row
        if index is None:
            return
        self._mark_changed(index)
        if self._pos is not None:
            self._pos.pop(old.entry.id, None)
        if row is not None:
            self.rows[index] = row
            if self._pos is not None:
                self._pos[row.entry.id] = index
        elif index == len(self.rows) - 1:
            self.rows.pop()
        else:
            del self.rows[index]
            self._pos = None

    def _list_insert(self, index: int, row: Row) -> None:
        if index == len(self.rows):
            self.rows.append(row)
            if self._pos is not None:
                self._pos[row.entry.id] = index
        else:
            self.rows.insert(index, row)
            self._pos = None

    def _mark_changed(self, index: int | None) -> None:
        if index is not None and (self.changed_from is None or index < self.changed_from):
            self.changed_from = index

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
        assistants = [e for e in entries[start:] if e.type == "message" and e.role == "assistant"]
        for entry, line in each_line(assistants):
            facts = None if line is None else line_facts(line, entry.raw_id)
            if facts is not None:
                entry.set_text_flag(facts.has_text)
            if tree.by_id.get(entry.id) is entry:  # a line whose id a later one took is no node
                self._calls.add(
                    entry, entry_tool_calls(entry) if facts is None else facts.tool_calls
                )
        if self._calls.has_repeats:
            self._calls.settle(walk(tree, tree.leaf_holders()))


def walk(tree: SessionTree, active: set[str]) -> Iterator[Entry]:
    """Every entry in the order Pi's tree selector walks them: depth first, the branch
    holding the active leaf first at each level."""
    children = tree.placements
    stack = list(reversed(_active_first(children[None], active)))
    expanded: set[str] = set()
    visits, budget = 0, 4 * len(tree.entries) + 10_000  # as in TreeRows._flatten
    while stack:
        entry = stack.pop()
        visits += 1
        yield entry
        kids = children.get(entry.id)
        if kids and (entry.id not in expanded or visits + len(stack) <= budget):
            expanded.add(entry.id)
            stack.extend(reversed(_active_first(kids, active)))


def _check_filter(mode: str) -> str:
    if mode not in FILTERS and mode != _EVERYTHING:
        raise ValueError(f"unknown filter {mode!r}: use one of {', '.join(FILTERS)}")
    return mode


def _active_first(entries: list[Entry], active: set[str]) -> list[Entry]:
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
