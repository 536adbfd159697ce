"""One displayed row of the tree: its entry, where it sits (Pi's FlatNode: indent,
connector, gutters), the guide drawn before it and what it says."""

from __future__ import annotations

from typing import Any, Protocol

from pitui.core.format.timestamps import label_time
from pitui.core.rows.row_text import entry_display
from pitui.core.rows.safe_text import one_line
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree


class RowOwner(Protocol):
    """What a row asks of the rows it belongs to (`TreeRows`), named here so that
    row.py need not import rows.py."""

    tree: SessionTree
    label_times: bool
    multiple_roots: bool
    guide_memo: GuideMemo

    def tool_calls(self) -> dict[Any, str]: ...


Gutters = tuple[int, bool, "Gutters"] | None  # (position, show, older gutters)


class Row:
    """One displayed entry. Structure fields follow Pi's FlatNode (indent, connector, gutters)."""

    __slots__ = (
        "_display",
        "_guide",
        "_owner",
        "_search",
        "connector",
        "depth",
        "entry",
        "folded",
        "gutters",
        "indent",
        "is_last",
        "is_leaf_marker",
        "just_branched",
        "kids",
        "label",
        "level",
        "on_active_path",
        "parent",
    )

    def __init__(
        self,
        owner: RowOwner,
        entry: Entry,
        parent: Row | None,
        display: tuple[str, str, str, str] | None = None,
    ) -> None:
        """`display`: the row's text if already worked out (controls made visible)."""
        self._owner = owner
        self.entry = entry
        self.parent = parent  # nearest visible ancestor's row
        self.kids: list[Row] = []  # visible children (before folding), in display order
        self.level: int = parent.level + 1 if parent else 0  # depth in the visible tree
        self.indent = 0
        self.depth = 0  # display indent: increases only at branch points
        self.connector = False
        self.just_branched = False
        self.is_last = True
        self.gutters: Gutters = None
        self.on_active_path = False
        self.is_leaf_marker = False
        self.folded = False
        label = owner.tree.labels.get(entry.id)
        self.label: str | None = label.text if label else None
        self._guide: str | None = None
        self._display = display
        self._search: str | None = None  # what search looks in, but the label, lowercased

    def __repr__(self) -> str:
        return f"Row({self.guide}{self.text!r})"

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def has_children(self) -> bool:
        return bool(self.kids)

    @property
    def foldable(self) -> bool:
        """Pi's isFoldable: has children and is a root or the first row of a branch."""
        return bool(self.kids) and (self.parent is None or len(self.parent.kids) > 1)

    @property
    def guide(self) -> str:
        if self._guide is None:
            self._guide = self._owner.guide_memo.guide(self)
        return self._guide

    @property
    def fold_marker(self) -> str:
        """`⊞ ` for a folded row whose guide has no connector to carry the fold sign."""
        return "⊞ " if self.folded and not self.connector else ""

    def display(self) -> tuple[str, str, str, str]:
        """(tag, tag style, body, body style): e.g. ("user: ", "user", "hello", "")."""
        display = self._display
        if display is None:
            display = self._display = self._displayed(self.entry.read_raw())
        return display

    def _displayed(self, raw: dict[str, Any]) -> tuple[str, str, str, str]:
        tag, tag_style, body, body_style = entry_display(self.entry, raw, self._owner.tool_calls)
        return (one_line(tag), tag_style, one_line(body), body_style)

    @property
    def text(self) -> str:
        tag, _, body, _ = self.display()
        return tag + body

    def parts(self) -> list[tuple[str, str]]:
        """The row as (text, style key) pieces: guide, fold, active, label, tag, body."""
        tag, tag_style, body, body_style = self.display()
        pieces = [(self.guide, "guide"), (self.fold_marker, "fold")]
        pieces.append(("• " if self.on_active_path else "", "active"))
        labelled = self.label is not None  # even one String() makes "" (an empty array)
        pieces.append((f"[{one_line(self.label or '')}] " if labelled else "", "label"))
        if labelled and self._owner.label_times:
            pieces.append((self._label_time(), "muted"))
        pieces += [(tag, tag_style), (body, body_style)]
        return [(text, style) for text, style in pieces if text]

    def search_text(self) -> str:
        """What search looks in (Pi's getSearchableText, lowercased), once prepared by
        `TreeRows.search`."""
        rest = self._search or ""
        return rest if self.label is None else f"{self.label.lower()} {rest}"

    def plain(self) -> str:
        if self.folded or (self.label is not None and self._owner.label_times):
            return "".join(text for text, _ in self.parts())
        tag, _, body, _ = self.display()  # as parts(), without building them
        label = "" if self.label is None else f"[{one_line(self.label)}] "
        return f"{self.guide}{'• ' if self.on_active_path else ''}{label}{tag}{body}"

    def _label_time(self) -> str:
        label = self._owner.tree.labels.get(self.entry.id)
        time = label_time(label.timestamp) if label else None
        return f"{time} " if time else ""

    def _invalidate(self) -> None:
        self._guide = None


def place(row: Row, multiple_roots: bool) -> None:
    """Pi's indent / connector / gutter rules, from the parent's (already placed) values."""
    parent = row.parent
    if parent is None:
        row.indent = 1 if multiple_roots else 0
        row.just_branched = row.connector = multiple_roots
        row.gutters = None
    else:
        siblings = parent.kids
        branched = len(siblings) > 1
        grows = branched or (parent.just_branched and parent.indent > 0)
        row.indent = parent.indent + 1 if grows else parent.indent
        row.just_branched = row.connector = branched
        row.is_last = siblings[-1] is row
        row.gutters = _child_gutters(parent, multiple_roots)
    row.depth = max(0, row.indent - 1) if multiple_roots else row.indent


def _child_gutters(parent: Row, multiple_roots: bool) -> Gutters:
    if not parent.connector or (parent.parent is None and multiple_roots):
        return parent.gutters
    return (max(0, parent.depth - 1), not parent.is_last, parent.gutters)


class GuideMemo:
    """Guides already drawn, by what decides them: rows of one chain share their gutters
    and depth, so a long chain draws its guide once instead of once a row."""

    def __init__(self) -> None:
        self._guides: dict[tuple[int, int, str], str] = {}
        self._held: list[Gutters] = []  # keeps each keyed gutters alive, so its id stays its own

    def guide(self, row: Row) -> str:
        shows_connector = row.connector and not (row.parent is None and row._owner.multiple_roots)
        connector = ""
        if shows_connector and row.depth > 0:
            connector = ("└" if row.is_last else "├") + (
                "⊞" if row.folded else "⊟" if row.foldable else "─"
            )
        key = (id(row.gutters), row.depth, connector)
        guide = self._guides.get(key)
        if guide is None:
            guide = self._guides[key] = draw_guide(row.depth, connector, row.gutters)
            self._held.append(row.gutters)
        return guide


def draw_guide(width: int, connector: str, gutters: Gutters, at_most: int | None = None) -> str:
    """The guide before a row `width` levels in: its gutters (`│`), then its connector;
    with `at_most`, a deeper row's only its last `at_most` levels, after "…" (a line's length
    bounded: every branch point adds a level below it, so 20,000 of them made a text of
    gigabytes)."""
    start = 0 if at_most is None or width <= at_most else width - at_most
    chars = [" "] * ((width - start) * 3)
    if connector:
        at = (width - 1 - start) * 3
        chars[at], chars[at + 1] = connector[0], connector[1]
    levels: list[tuple[int, bool]] = []
    node = gutters
    while node is not None and node[0] >= start:  # outer gutters sit at lower levels
        levels.append((node[0], node[1]))
        node = node[2]
    seen: set[int] = set()
    for position, show in reversed(levels):  # the oldest gutter at a level wins, as in Pi
        if position in seen or position >= width:
            continue
        seen.add(position)
        at = (position - start) * 3
        chars[at : at + 3] = ["│" if show else " ", " ", " "]
    return ("…" if start else "") + "".join(chars)
