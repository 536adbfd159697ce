"""Taking in appended entries without a rebuild: the common live case (an entry whose parent
is the leaf, no children) in O(1) amortised; other shapes rebuild.

A `TreeRows` mixin: the state it updates is made in `TreeRows._rebuild`, and `rebuild`,
`_passes`, `index_of` and `tool_calls` (which a new row's owner needs) are `TreeRows`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pitui.core.format.entry_types import EntryType
from pitui.core.rows.row import GuideMemo, Row, place
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree


class AppendRows:
    """`extend()`/`catch_up()` of `TreeRows`, and the row-list edits they make."""

    tree: SessionTree
    rows: list[Row]
    changed_from: int | None
    multiple_roots: bool
    label_times: bool
    guide_memo: GuideMemo
    _filter: str
    _count: int
    _unique: int
    _leaf_id: str | None
    _anchor: Row | None
    _order: list[Row]
    _row_of: dict[str, Row]
    _pos: dict[str, int] | None
    _active_len: int
    _active_fold: int | None
    version: int

    rebuild: Callable[[], None]
    _passes: Callable[[Entry, str | None], bool]
    index_of: Callable[[str], int | None]
    tool_calls: Callable[[], dict[Any, str]]

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
        if entry.type == EntryType.LABEL and self._filter == "labeled-only":
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
        if old.kids:
            return False
        if entry is None:  # the row goes: only as its parent's only child
            parent = old.parent
            if parent is None or len(parent.kids) != 1:
                return False
            del self._row_of[old.entry.id]
            parent.kids.clear()
            parent._invalidate()
            self._replace_at(old, None)
            self._anchor = parent
            return True
        del self._row_of[old.entry.id]
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
        if entry.type == EntryType.LABEL:
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
        if index is None:
            return
        self.version += 1
        if self.changed_from is None or index < self.changed_from:
            self.changed_from = index
