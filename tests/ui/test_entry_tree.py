"""EntryTree: keys, messages, folding, filters, append, inert session text."""

from __future__ import annotations

from entry_builders import entries, msg, ts
from textual.app import App, ComposeResult
from textual.message import Message

from pitui.core.format.timestamps import label_time
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.entry_tree import EntryTree

BRANCHED = [
    msg("r", None, "user", "root", 1),
    msg("a", "r", "assistant", "answer", 2),
    msg("b1", "a", "user", "first try", 3),
    msg("b1a", "b1", "assistant", "reply one", 4),
    msg("b2", "a", "user", "second try", 5),
    msg("b2a", "b2", "assistant", "reply two", 6),
]
# rows: r, a, b2, b2a, b1, b1a (active branch first); the cursor opens on the leaf b2a


class TreeApp(App[None]):
    COMMAND_PALETTE_BINDING = "ctrl+k"  # as pitui's app: ctrl+p is the previous match

    def __init__(self, tree: SessionTree) -> None:
        super().__init__()
        self.session_tree = tree
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield EntryTree(self.session_tree)

    def on_entry_tree_highlighted(self, message: EntryTree.Highlighted) -> None:
        self.messages.append(message)

    def on_entry_tree_selected(self, message: EntryTree.Selected) -> None:
        self.messages.append(message)

    def on_entry_tree_search_typed(self, message: EntryTree.SearchTyped) -> None:
        self.messages.append(message)


def highlighted_ids(app: TreeApp) -> list[str]:
    return [m.entry.id for m in app.messages if isinstance(m, EntryTree.Highlighted)]


def rendered(widget: EntryTree) -> list[str]:
    height = widget.scrollable_content_region.height
    return ["".join(s.text for s in widget.render_line(y)) for y in range(height)]


async def test_keys_move_cursor_and_post_highlighted() -> None:
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        assert tree.highlighted is not None and tree.highlighted.id == "b2a"
        await pilot.press("up")
        await pilot.pause()
        assert highlighted_ids(app)[-1] == "b2"
        assert all(m.control is tree for m in app.messages)
        await pilot.press("home")
        await pilot.pause()
        assert tree.cursor_line == 0 and highlighted_ids(app)[-1] == "r"
        await pilot.press("end")
        await pilot.pause()
        assert highlighted_ids(app)[-1] == "b1a"
        await pilot.press("home", "down", "down")
        await pilot.pause()
        assert highlighted_ids(app)[-1] == "b2"
        await pilot.press("end", "alt+l")
        await pilot.pause()
        assert highlighted_ids(app)[-1] == "b2a"
        await pilot.press("enter", "slash", "x", "backspace")
        await pilot.pause()
        assert isinstance(app.messages[-4], EntryTree.Selected)
        assert app.messages[-4].entry.id == "b2a"
        typed = [m.text for m in app.messages if isinstance(m, EntryTree.SearchTyped)]
        assert typed == ["/", "/x", "/"]  # keys that type search, as in Pi's /tree


async def test_a_click_on_a_fold_sign_folds_and_unfolds_its_branch() -> None:
    """The signs (⊟ ⊞) looked like buttons and did nothing; a click beside them still only
    highlights the row."""
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        sign = rendered(tree)[2].index("⊟")  # b2's branch
        await pilot.click(EntryTree, offset=(sign + 1, 2))  # beside it: no fold
        assert len(tree.rows) == 6 and tree.highlighted.id == "b2"
        await pilot.click(EntryTree, offset=(sign, 2))
        await pilot.pause()
        assert [r.entry.id for r in tree.rows] == ["r", "a", "b2", "b1", "b1a"]
        assert rendered(tree)[2].index("⊞") == sign
        await pilot.click(EntryTree, offset=(sign, 2))
        await pilot.pause()
        assert len(tree.rows) == 6 and tree.highlighted.id == "b2"


async def test_fold_unfold_and_parent() -> None:
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.press("up")  # b2, a foldable branch start
        await pilot.press("ctrl+left")  # Pi's foldOrUp
        await pilot.pause()
        assert [r.entry.id for r in tree.rows] == ["r", "a", "b2", "b1", "b1a"]
        assert "├⊞ • user: second try" in rendered(tree)[2]
        await pilot.press("ctrl+left")  # folded: up to the segment start
        await pilot.pause()
        assert tree.highlighted is not None and tree.highlighted.id != "b2"
        tree.move_to(2)
        await pilot.press("alt+right")  # Pi's unfoldOrDown, its other key
        await pilot.pause()
        assert len(tree.rows) == 6 and tree.highlighted.id == "b2"
        await pilot.press("alt+up")
        await pilot.pause()
        assert len(tree.rows) == 4
        await pilot.press("alt+down")
        await pilot.pause()
        assert len(tree.rows) == 6


async def test_filter_cycle_keeps_entry() -> None:
    raws = [*BRANCHED, {"type": "model_change", "id": "m", "parentId": "b2a", "timestamp": ts(7)}]
    app = TreeApp(SessionTree(entries(raws)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        assert tree.filter == "default" and len(tree.rows) == 6
        assert tree.highlighted is not None and tree.highlighted.id == "b2a"  # nearest shown
        await pilot.press("ctrl+o")  # no-tools
        await pilot.press("ctrl+o")  # user-only
        await pilot.pause()
        assert tree.filter == "user-only" and len(tree.rows) == 3
        assert tree.highlighted.id == "b2"
        for _ in range(3):
            await pilot.press("ctrl+o")  # labeled-only, all, default
        await pilot.pause()
        assert tree.filter == "default"


async def test_append_keeps_highlight_and_follows_end() -> None:
    raws = [msg(f"e{i}", f"e{i - 1}" if i else None, "user", f"m{i}", i) for i in range(30)]
    source = SessionTree(entries(raws[:20]))
    app = TreeApp(source)
    async with app.run_test(size=(60, 8)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        assert tree.cursor_line == 19  # on the leaf: follow mode
        batch = entries(raws[20:25], 20)
        source.extend(batch)
        tree.append(batch)
        await pilot.pause()
        assert tree.cursor_line == 24 and tree.highlighted.id == "e24"
        assert tree.scroll_offset.y == 25 - tree.scrollable_content_region.height
        await pilot.press("home", "down")
        await pilot.pause()
        batch = entries(raws[25:], 25)
        source.extend(batch)
        tree.append(batch)
        await pilot.pause()
        assert tree.highlighted.id == "e1" and tree.scroll_offset.y == 0
        assert len(tree.rows) == 30


async def test_search_next_previous() -> None:
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.press("home")
        assert tree.search("reply") == 2
        assert [r.entry.id for r in tree.rows] == ["b2a", "b1a"]  # only the matches, as Pi
        assert tree.highlighted.id == "b1a"  # as Pi: no shown ancestor of r, the last row
        await pilot.press("ctrl+n")
        assert tree.highlighted.id == "b2a"
        await pilot.press("ctrl+n")
        assert tree.highlighted.id == "b1a"
        await pilot.press("ctrl+p")
        assert tree.highlighted.id == "b2a"
        tree.search("")
        assert len(tree.rows) == 6 and tree.highlighted.id == "b2a"


async def test_click_selects_row() -> None:
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.click(EntryTree, offset=(5, 1))
        await pilot.pause()
        assert tree.cursor_line == 1 and highlighted_ids(app)[-1] == "a"


async def test_session_text_is_inert() -> None:
    raws = [
        msg("r", None, "user", "[bold]x[/bold] \x1b]52;c;SGVsbG8=\x07 \x1b[2J \x9b31m", 1),
        {"type": "label", "id": "l", "parentId": "r", "timestamp": ts(2), "targetId": "r",
         "label": "[red]lbl\x1b[0m"},
    ]  # fmt: skip
    app = TreeApp(SessionTree(entries(raws)))
    async with app.run_test(size=(80, 5)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        lines = rendered(tree)
        joined = "".join(lines)
        assert "\x1b" not in joined and "\x07" not in joined and "\x9b" not in joined
        assert "[bold]x[/bold]" in lines[0] and "[[red]lbl␛[0m]" in lines[0]
        segments = [seg for y in range(3) for seg in tree.render_line(y)]
        assert not any("\x1b" in seg.text for seg in segments)


async def test_shift_t_shows_label_times_as_pi() -> None:
    raws = [
        *BRANCHED,
        {"type": "label", "id": "l", "parentId": "b2a", "timestamp": "2001-02-03T04:05:06.000Z",
         "targetId": "a", "label": "keep"},
    ]  # fmt: skip
    app = TreeApp(SessionTree(entries(raws)))
    async with app.run_test(size=(80, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.pause()
        line = next(text for text in rendered(tree) if "[keep]" in text)
        assert "[keep] assistant: answer" in line
        await pilot.press("T")
        await pilot.pause()
        stamp = label_time("2001-02-03T04:05:06.000Z")
        assert stamp is not None and stamp.startswith("01/2/")  # another year: YY/M/D HH:MM
        assert f"[keep] {stamp} assistant: answer" in "".join(rendered(tree))
        await pilot.press("T")
        await pilot.pause()
        assert "[keep] assistant: answer" in "".join(rendered(tree))


async def test_a_search_edit_unfolds_every_branch_as_pi() -> None:
    """Pi's /tree clears its folds at every edit of the search: with branches folded, a
    search answered "(0/0)" for words that are in them."""
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.press("alt+up")  # fold every branch
        await pilot.pause()
        assert [r.entry.id for r in tree.rows] == ["r", "a", "b2", "b1"]
        await pilot.press("r")  # the search's first edit
        await pilot.pause()
        assert len(tree.rows) == 6
        assert tree.search("reply") == 2  # b2a and b1a, each in a branch that was folded


async def test_up_and_down_go_round_as_pis_tree() -> None:
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.press("home", "up")
        await pilot.pause()
        assert tree.highlighted.id == "b1a"  # the last row
        await pilot.press("down")
        await pilot.pause()
        assert tree.highlighted.id == "r"


async def test_the_active_leaf_is_shown_through_folded_branches() -> None:
    """Alt+L stopped on the fold that hid the leaf, the branch still folded."""
    app = TreeApp(SessionTree(entries(BRANCHED)))
    async with app.run_test(size=(60, 10)) as pilot:
        tree = app.query_one(EntryTree)
        await pilot.press("alt+up", "home")  # every branch folded, the leaf b2a hidden
        await pilot.pause()
        assert "b2a" not in [r.entry.id for r in tree.rows]
        await pilot.press("alt+l")
        await pilot.pause()
        assert tree.highlighted.id == "b2a"
        assert "b1a" not in [r.entry.id for r in tree.rows]  # the other branch stays folded
