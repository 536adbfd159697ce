"""SessionTable (the picker's list) on its own: columns, cursor keys, mouse, inert text."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input

from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.catalog.summary import SessionSummary
from pitui.ui.widgets.session_table import SessionTable

NOW = datetime(2026, 1, 10, tzinfo=UTC)
SIZE = (120, 20)


def summary(path: str, name: str | None, first: str, count: int, ms: int) -> SessionSummary:
    return SessionSummary(
        path,
        id=path,
        cwd="/home/me/project",
        name=name,
        parent_session_path=None,
        created_ms=ms,
        modified_ms=ms,
        message_count=count,
        first_message=first,
    )


def rows(count: int) -> list[CatalogRow]:
    day = 86_400_000
    base = int(NOW.timestamp() * 1000)
    found = []
    for i in range(count):
        name = f"named {i}" if i % 3 == 0 else None
        found.append(
            CatalogRow(summary(f"/s/{i:05d}.jsonl", name, f"first message {i}", i, base - i * day))
        )
    return found


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlights: list[Any] = []
        self.selected: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Input(id="search", select_on_focus=False)
        yield SessionTable(id="sessions")

    def on_session_table_highlighted(self, event: SessionTable.Highlighted) -> None:
        self.highlights.append(event.summary)

    def on_session_table_selected(self, event: SessionTable.Selected) -> None:
        self.selected.append(event.summary)


def show(table: SessionTable, found: list[Any], **options: Any) -> None:
    settings = {"now": NOW, "all_scope": False, "show_paths": False, "home": "/home/me"}
    table.show_rows(found, **{**settings, **options})


def line(table: SessionTable, y: int) -> str:
    return table.render_line(y).text


async def test_header_columns_and_cells() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(5), all_scope=True)
        await pilot.pause()
        assert [c.key for c in table.columns] == ["session", "count", "age", "cwd"]
        assert line(table, 0).split() == ["Session", "Msgs", "Age", "Cwd"]
        assert line(table, 2).split() == ["first", "message", "1", "1", "1d", "~/project"]
        show(table, rows(5), show_paths=True)
        await pilot.pause()
        assert [c.key for c in table.columns] == ["session", "count", "age", "path"]
        assert line(table, 2).rstrip().endswith("/s/00001.jsonl")
        assert len(line(table, 2)) == table.scrollable_content_region.width


async def test_a_sort_by_a_measure_shows_its_column() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(SessionTable)
        found = rows(3)
        found[1].summary.total_cost, found[1].summary.size = 12.5, 3 * 1024 * 1024
        show(table, found, all_scope=True)
        table.show_sort("cost")
        await pilot.pause()
        assert [c.key for c in table.columns][:2] == ["session", "cost"]
        assert line(table, 0).split()[:2] == ["Session", "Cost"]
        assert "$12.50" in line(table, 2)
        table.show_sort("size")
        await pilot.pause()
        assert line(table, 0).split()[:2] == ["Session", "Size"]
        assert "3.0 MB" in line(table, 2)
        table.show_sort("recent")
        await pilot.pause()
        assert [c.key for c in table.columns] == ["session", "count", "age", "cwd"]


async def test_named_sessions_are_bold_and_accented() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(3))
        await pilot.pause()
        named = [s for s in table.render_line(1) if "named 0" in s.text]
        plain = [s for s in table.render_line(2) if "first message 1" in s.text]
        assert named and named[0].style is not None and named[0].style.bold
        assert plain and not (plain[0].style and plain[0].style.bold)


async def test_forks_have_tree_guides() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        parent, child = rows(2)
        fork = CatalogRow(child.summary, depth=1, is_last_child=True)
        show(table, [parent, fork])
        await pilot.pause()
        assert "└─ first message 1" in line(table, 2)


async def test_session_text_is_inert() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        odd = rows(1)[0]
        odd.summary.name = "[bold red]x[/] \x1b]52;c;aGk=\x07 end"
        show(table, [odd])
        await pilot.pause()
        text = line(table, 1)
        assert "[bold red]x[/]" in text and "\x1b" not in text and "\x07" not in text


async def test_moves_keep_the_cursor_visible() -> None:
    """The moves the picker's keys make (the list never has the focus: the search box does)."""
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(1000))
        await pilot.pause()
        page = table.scrollable_content_region.height - 1
        table.action_cursor(1)
        table.action_cursor(1)
        assert table.cursor_line == 2
        table.action_page(1)
        assert table.cursor_line == 2 + page
        table.action_jump(-1)
        await pilot.pause()
        assert table.cursor_line == 999 and table.highlighted.path == "/s/00999.jsonl"
        assert table.scroll_offset.y == 1000 - page  # the last row is on screen
        assert "named 999" in line(table, page)
        table.action_page(-1)
        assert table.cursor_line == 999 - page
        table.action_jump(0)
        await pilot.pause()
        assert table.cursor_line == 0 and table.scroll_offset.y == 0
        table.action_select()
        await pilot.pause()
        assert app.selected[-1].path == "/s/00000.jsonl"
        assert app.highlights[-1] is table.highlighted


async def test_a_click_highlights_and_only_a_double_click_opens() -> None:
    """A second click on the highlighted row, seconds later, opened it: opening a session
    (a new screen) takes a double-click or Enter."""
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(10))
        await pilot.pause()
        await pilot.click(SessionTable, offset=(5, 4))  # header line + row index 3
        await pilot.pause()
        assert table.cursor_line == 3 and not app.selected
        await pilot.pause(0.6)  # past a double-click's interval
        await pilot.click(SessionTable, offset=(5, 4))
        await pilot.pause()
        assert not app.selected
        await pilot.click(SessionTable, offset=(5, 5), times=2)
        await pilot.pause()
        assert [row.path for row in app.selected] == ["/s/00004.jsonl"]
        await pilot.click(SessionTable, offset=(5, 0))  # the header: nothing
        assert table.cursor_line == 4


async def test_a_long_list_has_no_horizontal_scrollbar_and_a_header_unlike_the_cursor() -> None:
    """The vertical scrollbar took a column from rows cut to the width: a horizontal
    scrollbar took the list's last line. In 256 colours the header had the cursor's colour."""
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(200))
        await pilot.pause()
        assert table.show_vertical_scrollbar and not table.show_horizontal_scrollbar
        header = table.get_component_rich_style("session-table--header")
        cursor = table.get_component_rich_style("session-table--cursor")
        assert header.bgcolor != cursor.bgcolor and header.underline


async def test_new_rows_keep_the_highlighted_session() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        found = rows(50)
        show(table, found)
        table.move_to(20)
        show(table, found[10:])
        assert table.highlighted.path == found[20].summary.path and table.cursor_line == 10
        show(table, found[30:])  # gone: back to the first row
        assert table.cursor_line == 0
        show(table, [])
        await pilot.pause()
        assert table.highlighted is None and app.highlights[-1] is None


async def test_typing_in_the_list_goes_to_the_search_box() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        show(table, rows(3))
        table.focus()
        await pilot.press("a", "b", "backspace", "c")
        assert app.query_one(Input).value == "ac" and app.focused is app.query_one(Input)


async def test_the_first_row_stays_highlighted_as_answers_stream_in_until_the_user_moves() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(SessionTable)
        found = rows(10)
        show(table, found[5:], top=True)  # the first answer of a question
        show(table, [found[1], *found[5:]])  # more of the index: a better match comes first
        await pilot.pause()
        assert table.highlighted.path == found[1].summary.path  # the first row, drawn so
        table.action_cursor(2)  # the user picks a row: it stays picked while it is listed
        show(table, [found[0], found[1], *found[5:]])
        assert table.highlighted.path == found[6].summary.path
        show(table, found[:3], top=True)  # a new question: its first row again
        assert table.highlighted.path == found[0].summary.path


async def test_a_wide_screen_shows_the_folder_whole() -> None:
    """At 200 columns the Cwd column stayed 28 wide and cut `/home/dev/projects/project-11`
    in the middle, beside a title column with room to spare; at 80 it still gives way."""
    folder = "/home/dev/projects/project-11"  # outside the home: shown whole, 29 characters
    found = rows(3)
    for row in found:
        row.summary.cwd = folder
    for width, whole in ((200, True), (80, False)):
        app = TableApp()
        async with app.run_test(size=(width, 20)) as pilot:
            table = app.query_one(SessionTable)
            show(table, found, all_scope=True)
            await pilot.pause()
            assert (folder in line(table, 1)) is whole, width
            assert len(line(table, 1)) == table.scrollable_content_region.width
