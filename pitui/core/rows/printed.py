"""Every row of a tree as a line of text, laid out as `TreeRows` lays it out (nothing
folded), without a `Row` per entry: what `pitui tree` prints.

A row's place (Pi's FlatNode: indent, connector, gutters) follows from its parent's and
from how many shown kids the parent has, so the shown rows are found first (entries in
display order, each with its parent's row), their kids counted, then placed in order. Down
a chain of only children nothing in a place changes: such a row shares its parent's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from pitui.core.rows.all_texts import RowTexts
from pitui.core.rows.order import walk_shown
from pitui.core.rows.row import Gutters, draw_guide
from pitui.core.rows.row_text import Display, entry_display
from pitui.core.rows.safe_text import one_line
from pitui.core.rows.tool_calls import ToolCallMap
from pitui.core.session.collector import collector_paused
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree


class Place(NamedTuple):
    """Where a row sits and the guide drawn before it (see `row.place`)."""

    indent: int
    branched: bool  # its parent has several shown kids: a connector (Pi's justBranched)
    is_last: bool  # the last of its parent's shown kids (read only when `branched`)
    gutters: Gutters
    depth: int  # display indent
    guide: str


class Shown(NamedTuple):
    """The rows a filter shows, unfolded, in display order."""

    entries: list[Entry]
    places: list[Place]
    active: set[str]  # ids on the path root → leaf


def tree_text(tree: SessionTree, mode: str, texts: RowTexts) -> str:
    """The rows `mode` shows, one line each (`•` marks the active path, as in Pi), from the
    row texts `texts` took as the session loaded."""
    return "".join(tree_chunks(tree, mode, texts))


def tree_chunks(
    tree: SessionTree, mode: str, texts: RowTexts, *, ids: bool = False
) -> Iterator[str]:
    """`tree_text` a few thousand lines at a time: the whole text is never in memory (nor
    its encoding, when each chunk is written as it comes). `ids`: each line starts with its
    entry's id, in a column (what `pitui fork`, `label` and `context-edit` take)."""
    with collector_paused():
        calls = ToolCallMap()
        known = texts.finish(tree, calls)  # also every assistant's text flag, for filters
        shown = shown_rows(tree, mode)
        if not shown.entries:
            yield f"No entries found [{mode}]\n"
            return
        width = min(max(len(e.id) for e in shown.entries), ID_WIDTH) if ids else None
        yield from _chunks(tree, shown, known, lambda: calls.texts, width)


def _chunks(
    tree: SessionTree,
    shown: Shown,
    known: list[Display | None],
    calls: Callable[[], dict[object, str]],
    id_width: int | None,
) -> Iterator[str]:
    entries, places = shown.entries, shown.places
    for start in range(0, len(entries), _CHUNK):
        end = start + _CHUNK
        lines = _lines(tree, entries[start:end], places[start:end], shown, known, calls)
        if id_width is not None:
            lines = [
                f"{one_line(e.id):<{id_width}}  {line}"
                for e, line in zip(entries[start:end], lines, strict=True)
            ]
        yield "".join(lines)


def _lines(
    tree: SessionTree,
    entries: list[Entry],
    places: list[Place],
    shown: Shown,
    known: list[Display | None],
    calls: Callable[[], dict[object, str]],
) -> list[str]:
    labels, active = tree.labels, shown.active
    lines: list[str] = []
    append = lines.append
    for entry, place in zip(entries, places, strict=True):
        display = known[entry.index]
        if display is None:  # not worked out while loading (it always is, in practice)
            tag, tag_style, body, body_style = entry_display(entry, entry.read_raw(), calls)
            display = (one_line(tag), tag_style, one_line(body), body_style)
        entry_id = entry.id
        mark = "• " if entry_id in active else ""
        if labels and (label := labels.get(entry_id)) is not None:
            mark += f"[{one_line(label.text)}] "
        append(f"{place.guide}{mark}{display[0]}{display[2]}\n")
    return lines


_CHUNK = 4096  # lines
GUIDE_LEVELS = 40  # levels of guide a printed line shows at most (deeper: "…" and the last)
ID_WIDTH = 16  # the id column's widest (a longer id pushes its line's text right)


def shown_rows(tree: SessionTree, mode: str) -> Shown:
    """The rows `mode` shows, placed; as `TreeRows(tree, mode)`'s rows, unfolded."""
    entries, parents, active = walk_shown(tree, mode)
    return Shown(entries, _places(parents), active)


def _places(parents: list[int]) -> list[Place]:
    """Each row's place, from its parent's (rows come after their parents)."""
    n = len(parents)
    count, last = [0] * (n + 1), [-1] * (n + 1)  # index -1 (the last): the roots
    for i, parent in enumerate(parents):
        count[parent] += 1
        last[parent] = i
    multiple_roots = count[-1] > 1
    memo: dict[tuple[int, int, str], str] = {}
    places: list[Place] = []
    append = places.append
    for i, parent in enumerate(parents):
        if parent >= 0 and count[parent] == 1 and not (above := places[parent]).branched:
            append(above)  # an only child, its parent not branched: the same place
        else:
            append(_place(i, parent, parents, places, count, last, multiple_roots, memo))
    return places


def _place(
    i: int,
    parent: int,
    parents: list[int],
    places: list[Place],
    count: list[int],
    last: list[int],
    multiple_roots: bool,
    memo: dict[tuple[int, int, str], str],
) -> Place:
    """Pi's indent / connector / gutter rules (as `row.place`) and the guide they draw
    (as `row.GuideMemo`, whose places keep each keyed gutters alive)."""
    gutters: Gutters
    if parent < 0:
        indent, branched, gutters = (1 if multiple_roots else 0), multiple_roots, None
    else:
        above = places[parent]
        branched = count[parent] > 1
        grows = branched or (above.branched and above.indent > 0)
        indent = above.indent + 1 if grows else above.indent
        if not above.branched or (parents[parent] < 0 and multiple_roots):
            gutters = above.gutters
        else:
            gutters = (max(0, above.depth - 1), not above.is_last, above.gutters)
    is_last = last[parent] == i
    depth = max(0, indent - 1) if multiple_roots else indent
    connector = ""
    if branched and parent >= 0 and depth > 0:  # a root's connector is never drawn
        connector = ("└" if is_last else "├") + ("⊟" if count[i] else "─")
    key = (id(gutters), depth, connector)
    guide = memo.get(key)
    if guide is None:
        guide = memo[key] = draw_guide(depth, connector, gutters, GUIDE_LEVELS)
    return Place(indent, branched, is_last, gutters, depth, guide)
