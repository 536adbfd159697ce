"""ContextPane: rows of the LLM context, markers, links back to entries, large contexts."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.app import App, ComposeResult
from ui_helpers import screen_lines

from pitui.core.session.context import build_context
from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.context_pane import (
    ROLE_STYLES,
    ContextList,
    ContextPane,
    ContextRow,
    prepare_context,
    row_text,
)

EVIL = "x\x1b]52;c;aGVsbG8=\x07y\x9b[bold]z[/bold]"


def chain(raws: list[dict[str, Any]]) -> SessionTree:
    entries = []
    parent = None
    for index, raw in enumerate(raws):
        entry_id = raw.get("id", f"e{index}")
        full = {
            "id": entry_id,
            "parentId": parent,
            "timestamp": f"2026-01-01T00:00:{index % 60:02d}.000Z",
        }
        entries.append(Entry.from_raw({**full, **raw}, index + 2, index * 100, index))
        parent = entry_id
    return SessionTree(entries)


def user(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "message": {"role": "user", "content": text}, **extra}


def assistant(text: str, **extra: Any) -> dict[str, Any]:
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "provider": "anthropic",
        "model": "claude",
    }
    return {"type": "message", "message": message, **extra}


def sample_tree() -> SessionTree:
    return chain(
        [
            user("old question", id="u0"),
            assistant("old answer", id="a0"),
            user("kept question", id="u1"),
            assistant("kept answer", id="a1"),
            {
                "type": "compaction",
                "id": "c1",
                "summary": "what happened",
                "firstKeptEntryId": "u1",
                "tokensBefore": 999,
            },
            {"type": "thinking_level_change", "id": "t1", "thinkingLevel": "high"},
            user("to be dropped", id="u2"),
            assistant("to be replaced", id="a2"),
            {"type": "context_edit", "id": "x1", "targetId": "u2", "replacement": None},
            {
                "type": "context_edit",
                "id": "x2",
                "targetId": "a2",
                "replacement": {"content": "better answer"},
            },
            {
                "type": "message",
                "id": "b1",
                "message": {"role": "bashExecution", "command": "ls", "output": "f", "exitCode": 0},
            },
            user(EVIL, id="u3"),
        ]
    )


class PaneApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.selected: list[tuple[ContextPane, str]] = []

    def compose(self) -> ComposeResult:
        yield ContextPane()

    def on_context_pane_entry_selected(self, event: ContextPane.EntrySelected) -> None:
        self.selected.append((event.control, event.entry_id))


async def test_rows_markers_and_header() -> None:
    tree = sample_tree()
    context = build_context(tree, "u3")
    async with PaneApp().run_test(size=(100, 30)) as pilot:
        pane = pilot.app.query_one(ContextPane)
        pane.show_context(context)
        await pilot.pause()
        rows = pane.rows
        assert rows[0].role is None and "compaction c1: 2 entries summarised" in rows[0].text
        assert [r.entry_id for r in rows[1:]] == ["c1", "u1", "a1", "u2", "a2", "b1", "u3"]
        dropped = rows[4]
        assert dropped.omitted and "omitted by x1" in dropped.text
        replaced = rows[5]
        assert replaced.replaced and "better answer" in replaced.text and "x2" in replaced.text
        assert all(r.tokens > 0 for r in rows[1:] if not r.omitted)
        lines = screen_lines(pilot.app)
        screen = "\n".join(lines)
        assert "model anthropic/claude" in lines[0] and "thinking high" in lines[0]
        assert f"~{context.tokens:,} tokens" in lines[0] and "6 messages" in lines[0]
        assert "── compaction c1" in screen
        assert "omitted by x1" in screen
        assert "✎" in screen
        assert "[bold]z[/bold]" in screen
        assert "\x1b" not in screen and "\x07" not in screen and "\x9b" not in screen
        svg = pilot.app.export_screenshot()
        assert "\x1b" not in svg and "\x9b" not in svg


async def test_omitted_rows_are_muted_and_struck() -> None:
    async with PaneApp().run_test(size=(100, 30)) as pilot:
        pane = pilot.app.query_one(ContextPane)
        pane.show_context(build_context(sample_tree(), "u3"))
        await pilot.pause()
        context = pilot.app.query_one(ContextList)
        strip = context.render_line(4)
        styles = [seg.style for seg in strip if "to be dropped" in seg.text]
        muted = context.get_component_rich_style("context-list--muted").color
        assert styles and styles[0].strike and styles[0].color == muted
        assert muted != context.rich_style.color


async def test_enter_and_click_post_entry_selected() -> None:
    async with PaneApp().run_test(size=(100, 30)) as pilot:
        app = pilot.app
        pane = app.query_one(ContextPane)
        pane.show_context(build_context(sample_tree(), "u3"))
        await pilot.pause()
        app.query_one(ContextList).focus()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.selected == [(pane, "u1")]
        await pilot.press("end", "enter")
        await pilot.pause()
        assert app.selected[-1] == (pane, "u3")
        await pilot.click(ContextList, offset=(5, 5))
        await pilot.pause()
        assert app.selected[-1] == (pane, "a2")
        assert app.query_one(ContextList).cursor_line == 5


async def test_retained_tail_and_empty_and_none() -> None:
    tree = chain(
        [
            user("gone", id="u0"),
            {
                "type": "compaction",
                "id": "c1",
                "summary": "s",
                "firstKeptEntryId": "u0",
                "systemMessage": {"role": "system", "content": "sys"},
                "retainedTail": [{"role": "user", "content": "tail"}],
            },
        ]
    )
    async with PaneApp().run_test() as pilot:
        pane = pilot.app.query_one(ContextPane)
        pane.show_context(build_context(tree, "c1"))
        await pilot.pause()
        assert "1 entries summarised" in pane.rows[0].text
        assert [r.role for r in pane.rows[1:]] == ["system", "compactionSummary", "user"]
        assert {r.entry_id for r in pane.rows} == {"c1"}
        pane.show_context(None)
        await pilot.pause()
        assert pane.rows == []
        pane.show_context(build_context(SessionTree([]), None))
        await pilot.pause()
        assert pane.rows == []
        await pilot.press("enter", "down", "end")


async def test_thousands_of_messages_stay_responsive() -> None:
    raws = []
    for index in range(5000):
        raws.append(user(f"question {index} " + "q" * 200))
        raws.append(assistant(f"answer {index} " + "a" * 400))
    tree = chain(raws)
    context = build_context(tree, tree.leaf.id if tree.leaf else None)
    view = prepare_context(context)  # what a screen would run in a thread worker
    assert len(view.rows) == 10000
    async with PaneApp().run_test(size=(100, 40)) as pilot:
        pane = pilot.app.query_one(ContextPane)
        widgets_before = len(list(pane.walk_children()))
        pane.show_context(view)
        await pilot.pause()
        # 10,000 rows are drawn a screenful at a time by the same few widgets (their
        # speed is measured in benchmarks/, not here).
        assert len(list(pane.walk_children())) == widgets_before
        pilot.app.query_one(ContextList).focus()
        await pilot.press("end", "pageup", "up", "enter")
        await pilot.pause()
        assert pilot.app.selected[-1][1] == f"e{10000 - 1 - 38 - 1}"


async def test_context_given_before_mount_is_shown() -> None:
    class EarlyApp(App[None]):
        def compose(self) -> ComposeResult:
            pane = ContextPane()
            pane.show_context(build_context(sample_tree(), "u3"))
            yield pane

    async with EarlyApp().run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "── compaction c1" in "\n".join(screen_lines(pilot.app))


def test_a_long_role_keeps_a_space_before_the_text() -> None:
    """`compactionSummary` filled its 14 columns and ran into its text: "compactionSumm##"."""
    for role in ROLE_STYLES:
        text = row_text(ContextRow("e1", "## Goal", role=role, tokens=15), Style()).plain
        shown_role, _, rest = text.strip().partition(" ")[2].lstrip().partition(" ")
        assert role.startswith(shown_role) and rest.lstrip() == "## Goal", text
