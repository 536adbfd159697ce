"""MessagePane: every entry type renders, session text stays inert, large bodies defer."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import pytest
from rich.console import Console
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Button, Collapsible, Static
from textual.worker import WorkerState
from waiting import wait_for

from pitui.core.session.entry import Entry
from pitui.core.session.tree import SessionTree
from pitui.ui.widgets.message_pane import HEAD_CHARS, EntryHeader, MessagePane

TS = "2026-01-02T03:04:05.000Z"
EVIL = "a\x1b]52;c;aGVsbG8=\x07b\x1b[31mred\x9b2J\x85\x00\x7f\x08\x0c\r end"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
USAGE = {"input": 10, "output": 5, "cacheRead": 1, "cacheWrite": 0, "totalTokens": 16}
USAGE_COST = {**USAGE, "cost": {"total": 0.0123}}
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def message(role: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "message", "message": {"role": role, **fields}}


RAWS: list[dict[str, Any]] = [
    message("user", content="hello **world**\n\n```python\nprint('hi')\n```"),
    message(
        "user",
        content=[
            {"type": "text", "text": "look"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
        ],
    ),
    message("user", content=None),
    message("user", content=42),
    message("user", content={"weird": True}),
    message("user", content=[None, 3, "str", {"type": "mystery", "x": 1}, {"no": "type"}]),
    message(
        "assistant",
        content=[
            {"type": "thinking", "thinking": "let me think"},
            {"type": "thinking", "thinking": "", "redacted": True},
            {"type": "text", "text": "answer"},
            {
                "type": "toolCall",
                "id": "call_1",
                "name": "bash",
                "arguments": {"command": "ls -la"},
            },
            {"type": "toolCall", "id": 5, "name": None, "arguments": None},
        ],
        provider="anthropic",
        model="claude",
        usage=USAGE_COST,
        stopReason="toolUse",
    ),
    message("assistant", content=None, stopReason="error", errorMessage="overloaded", usage="bad"),
    message(
        "toolResult",
        toolCallId="call_1",
        toolName="bash",
        content=[{"type": "text", "text": "ok"}],
        isError=False,
    ),
    message(
        "toolResult", toolCallId=7, toolName=42, content="boom", isError=True, details={"code": 1}
    ),
    message(
        "bashExecution", command="ls", output="a\nb", exitCode=0, cancelled=False, truncated=False
    ),
    message(
        "bashExecution",
        command=["not", "a", "string"],
        output=None,
        exitCode="x",
        cancelled=True,
        truncated=True,
        excludeFromContext=True,
    ),
    message("custom", customType="note", content="custom text", display=True, details=[1, 2]),
    message(
        "hookMessage", customType="old", content=[{"type": "text", "text": "v2"}], display=False
    ),
    message(
        "system",
        content="be nice",
        sections={"tools": "t", "n": 3},
        toolsAdded=[{"name": "x"}],
        toolsRemoved=["y"],
    ),
    message("system", content=None, sections="odd"),
    message("branchSummary", summary="went elsewhere", fromId="abc"),
    message("compactionSummary", summary="summary", tokensBefore=100),
    message("futureRole", content="?"),
    message(None, content="no role"),
    {"type": "message", "message": None},
    {"type": "message"},
    {"type": "message", "message": 12},
    {"type": "model_change", "provider": "openai", "modelId": "gpt"},
    {"type": "model_change", "provider": 1, "modelId": None},
    {"type": "thinking_level_change", "thinkingLevel": "high"},
    {"type": "thinking_level_change"},
    {
        "type": "compaction",
        "summary": "## Summary\nthings happened",
        "firstKeptEntryId": "e1",
        "tokensBefore": 12345,
        "details": {"readFiles": ["a.py"]},
        "usage": USAGE,
        "fromHook": False,
        "systemMessage": {"role": "system", "content": "sys"},
        "retainedTail": [{"role": "user", "content": "kept"}, None, 5],
    },
    {"type": "compaction", "summary": None, "firstKeptEntryId": 3, "tokensBefore": "many"},
    {"type": "branch_summary", "fromId": "e2", "summary": "branch went", "details": None},
    {"type": "custom", "customType": "ext", "data": {"k": [1, 2]}},
    {"type": "custom"},
    {
        "type": "custom_message",
        "customType": "ext",
        "content": "shown",
        "display": True,
        "details": {"a": 1},
    },
    {"type": "custom_message", "content": None},
    {"type": "label", "targetId": "e1", "label": "important"},
    {"type": "label", "targetId": "e1"},
    {"type": "label", "targetId": None, "label": 5},
    {"type": "session_info", "name": "My session"},
    {"type": "session_info", "name": "  "},
    {"type": "session_info", "name": 9},
    {"type": "context_edit", "targetId": "e1", "replacement": None},
    {"type": "context_edit", "targetId": "e1", "replacement": {"content": "new text"}},
    {
        "type": "context_edit",
        "targetId": "e1",
        "replacement": {"content": [{"type": "text", "text": "x"}]},
    },
    {"type": "context_edit", "targetId": "missing", "replacement": {}},
    {"type": "context_edit", "targetId": 4, "replacement": "odd"},
    {"type": "context_edit", "targetId": "e1"},
    {"type": "usage", "kind": "title", "provider": "p", "model": "m", "usage": USAGE_COST},
    {"type": "usage"},
    {"type": "from_the_future", "payload": {"x": [1, 2, 3]}},
    {"type": 17, "id": 5, "parentId": [], "timestamp": 123},
    {},
]


def make_entry(raw: dict[str, Any], index: int = 0) -> Entry:
    full = {"id": f"e{index:07x}", "parentId": None, "timestamp": TS, **raw}
    return Entry.from_raw(full, index + 2, index * 100, index)


def sample_tree() -> SessionTree:
    first = Entry.from_raw(
        {
            "type": "message",
            "id": "e1",
            "parentId": None,
            "timestamp": TS,
            "message": {"role": "user", "content": "target text"},
        },
        2,
        0,
        0,
    )
    label = Entry.from_raw(
        {
            "type": "label",
            "id": "l1",
            "parentId": "e1",
            "timestamp": TS,
            "targetId": "e1",
            "label": "important",
        },
        3,
        50,
        1,
    )
    return SessionTree([first, label])


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MessagePane()


async def show(pilot: Any, entry: Entry | None, tree: SessionTree | None = None) -> MessagePane:
    pane = pilot.app.query_one(MessagePane)
    pane.show_entry(entry, tree)
    await settle(pilot)
    return pane


async def settle(pilot: Any) -> None:
    """Wait until no worker is pending or running (cancelled ones included)."""
    busy = (WorkerState.PENDING, WorkerState.RUNNING)
    await pilot.pause()
    await wait_for(
        pilot, lambda: all(w.state not in busy for w in pilot.app.workers), "the workers to end"
    )


def source_text(pane: MessagePane, selector: str = "Static", separator: str = "\n") -> str:
    """The session text each rendered part was given."""
    chunks = []
    for static in pane.query(selector).results(Static):
        content = static.content
        if isinstance(content, Text):
            chunks.append(content.plain)
        elif isinstance(content, Markdown):
            chunks.append(content.markup)
        elif isinstance(content, Syntax):
            chunks.append(content.code)
    return separator.join(chunks)


def rendered_text(pane: MessagePane) -> str:
    """Every part and header as a terminal would get it (no colour codes: any escape left
    in the output came from session text)."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    for static in pane.query(".part, EntryHeader").results(Static):
        console.print(static.content)
    return out.getvalue()


def shown_lines(widget: Static) -> list[str]:
    """The lines a widget draws in its content area, as a user reads them."""
    return [widget.render_line(y).text.rstrip() for y in range(widget.content_size.height)]


@pytest.mark.parametrize("index", range(len(RAWS)))
async def test_every_entry_renders(index: int) -> None:
    entry = make_entry(RAWS[index], index)
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, entry, sample_tree())
        assert pane.entry is entry
        assert len(pane.query(EntryHeader)) == 1
        assert len(pane.query(".part")) >= 1
        assert "could not render" not in source_text(pane)
        assert rendered_text(pane)
        pilot.app.export_screenshot()


async def test_none_clears_the_pane() -> None:
    async with PaneApp().run_test() as pilot:
        pane = await show(pilot, make_entry(RAWS[0]))
        pane = await show(pilot, None)
        assert pane.entry is None
        assert not pane.query(EntryHeader)
        assert "No entry selected" in pilot.app.export_screenshot().replace("&#160;", " ")


async def test_header_shows_type_id_model_usage_cost_and_label() -> None:
    raw = {**RAWS[6], "id": "e1", "timestamp": TS}
    async with PaneApp().run_test(size=(160, 40)) as pilot:
        pane = await show(pilot, Entry.from_raw(raw, 9, 0, 0), sample_tree())
        header = pane.query_one(EntryHeader).content.plain
    for piece in (
        "message · assistant",
        "e1",
        TS,
        "anthropic/claude",
        "in 10",
        "out 5",
        "total 16",
        "$0.0123",
        "[important]",
        "line 9",
    ):
        assert piece in header


async def test_header_lines_break_between_pieces_at_any_width() -> None:
    raw = {**RAWS[6], "id": "e1", "timestamp": TS}
    pieces = ("message · assistant", TS, "anthropic/claude", "in 10", "total 16", "line 9")
    async with PaneApp().run_test(size=(44, 30)) as pilot:
        pane = await show(pilot, Entry.from_raw(raw, 9, 0, 0), sample_tree())
        for width in (44, 37, 60, 31):
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            header = pane.query_one(EntryHeader)
            lines = shown_lines(header)
            warning = [n for n, line in enumerate(lines) if line.startswith("⚠ not in Pi's")]
            assert warning, "the warning below"
            lines = lines[: warning[0]]
            assert len(lines) > 1, width
            assert all(len(line) <= header.content_size.width for line in lines), (width, lines)
            for piece in pieces:  # whole on one line, never wrapped inside
                assert any(piece in line for line in lines), (width, piece, lines)


async def test_specific_renderings() -> None:
    expectations = {
        1: ["[image image/png, 70 B]"],
        9: ["result of 42 (7) — ERROR", "boom"],
        11: ['$ ["not", "a", "string"]', "exit code: x", "(no output)", "cancelled: true"],
        27: [
            "retainedTail: 3 messages",
            "firstKeptEntryId: e1",
            "tokensBefore: 12345",
            "systemMessage:",
        ],
        35: ["label: (cleared)", "target: e1", "user: target text"],
        37: ["session name: My session"],
        38: ["session name: (cleared)"],
        40: ["omits the target's messages from the context", "user: target text"],
        41: ["replaces the content with:", "new text"],
        48: ["entry type from_the_future", '"payload"'],
        28: ["(no summary)", "firstKeptEntryId: 3", "tokensBefore: many"],
    }
    async with PaneApp().run_test(size=(120, 60)) as pilot:
        for index, pieces in expectations.items():
            pane = await show(pilot, make_entry(RAWS[index], index), sample_tree())
            text = source_text(pane)
            for piece in pieces:
                assert piece in text, (index, piece, text)


async def test_error_result_is_red_and_thinking_collapsible() -> None:
    async with PaneApp().run_test() as pilot:
        pane = await show(pilot, make_entry(RAWS[9]))
        styles = [s.content.style for s in pane.query(".plain").results(Static)]
        assert "red" in styles
        pane = await show(pilot, make_entry(RAWS[6]))
        collapsible = pane.query_one(Collapsible)
        assert collapsible.collapsed
        assert "let me think" in source_text(pane)


async def test_markup_in_session_text_is_shown_literally() -> None:
    raw = message("user", content="[bold]x[/bold] and [red]y[/]")
    async with PaneApp().run_test(size=(100, 20)) as pilot:
        pane = await show(pilot, make_entry(raw))
        assert "[bold]x[/bold]" in rendered_text(pane)
        assert "[bold]x[/bold]" in pilot.app.export_screenshot()
        pane = await show(
            pilot, make_entry({"type": "label", "targetId": "[b]t[/b]", "label": "[i]l[/i]"})
        )
        assert "[i]l[/i]" in rendered_text(pane)
        assert "[b]t[/b]" in rendered_text(pane)


def _evil_entries() -> list[dict[str, Any]]:
    return [
        message("user", content=EVIL),
        message(
            "assistant",
            content=[
                {"type": "thinking", "thinking": EVIL},
                {"type": "text", "text": f"```\n{EVIL}\n```"},
                {"type": "toolCall", "id": EVIL, "name": EVIL, "arguments": {EVIL: EVIL}},
                {"type": "image", "mimeType": EVIL, "data": EVIL},
                {"type": EVIL},
            ],
            provider=EVIL,
            model=EVIL,
            stopReason=EVIL,
            errorMessage=EVIL,
        ),
        message(
            "toolResult", toolName=EVIL, toolCallId=EVIL, content=EVIL, isError=True, details=EVIL
        ),
        message("bashExecution", command=EVIL, output=EVIL, exitCode=EVIL),
        message("system", content=EVIL, sections={EVIL: EVIL}),
        message(EVIL, content=EVIL),
        {
            "type": "compaction",
            "summary": EVIL,
            "firstKeptEntryId": EVIL,
            "retainedTail": [{"role": EVIL, "content": EVIL}],
        },
        {"type": "label", "targetId": EVIL, "label": EVIL},
        {"type": "session_info", "name": EVIL},
        {"type": "context_edit", "targetId": EVIL, "replacement": {"content": EVIL}},
        {"type": "usage", "kind": EVIL, "provider": EVIL, "model": EVIL, "usage": {EVIL: EVIL}},
        {"type": EVIL, EVIL: EVIL},
        {"type": "model_change", "provider": EVIL, "modelId": EVIL, "timestamp": EVIL, "id": EVIL},
    ]


@pytest.mark.parametrize("index", range(13))
async def test_control_characters_never_reach_the_screen(index: int) -> None:
    entry = make_entry(_evil_entries()[index], index)
    async with PaneApp().run_test(size=(120, 80)) as pilot:
        pane = await show(pilot, entry, sample_tree())
        for collapsible in pane.query(Collapsible):
            collapsible.collapsed = False
        await pilot.pause()
        output = rendered_text(pane)
        assert not CONTROL.search(output), repr(CONTROL.search(output))
        assert "␛" in output
        screen = pilot.app.export_screenshot()
        assert not CONTROL.search(screen.replace("\n", "").replace("\t", ""))


async def test_large_body_is_cut_and_show_all_renders_the_rest() -> None:
    body = ("line of text " * 8 + "\n") * 2500 + "THE-END"  # about 260 KB
    async with PaneApp().run_test(size=(100, 30)) as pilot:
        pane = await show(pilot, make_entry(message("user", content=body)))
        assert pane.has_more
        button = pane.query_one(".show-all", Button)
        assert "Show all (" in str(button.label)
        assert str(button.label).endswith("; alt+a)")  # it said "key a": "a" types a search
        assert pane.check_action("show_all", ()) is True
        shown = source_text(pane)
        assert "THE-END" not in shown
        assert HEAD_CHARS <= len(shown) < HEAD_CHARS + 500
        button.press()
        await settle(pilot)
        assert not pane.has_more
        assert not pane.query(".show-all")
        assert pane.check_action("show_all", ()) is False  # no longer offered in the footer
        assert source_text(pane, ".part", "") == body


async def test_show_all_key_and_many_small_blocks() -> None:
    blocks = [{"type": "text", "text": f"block {i} " + "x" * 1000} for i in range(80)]
    async with PaneApp().run_test(size=(100, 30)) as pilot:
        pane = await show(pilot, make_entry(message("assistant", content=blocks)))
        assert pane.has_more
        assert "block 79" not in source_text(pane)
        pane.focus()
        await pilot.press("alt+a")
        await settle(pilot)
        assert not pane.has_more
        assert "block 79 " in source_text(pane)


async def test_new_entry_replaces_pending_rest() -> None:
    body = "y" * 120_000
    async with PaneApp().run_test() as pilot:
        pane = await show(pilot, make_entry(message("user", content=body)))
        assert pane.has_more
        pane = await show(pilot, make_entry(RAWS[0]))
        assert not pane.has_more
        assert not pane.query(".show-all")


async def test_rapid_highlight_changes_end_on_the_last_entry() -> None:
    async with PaneApp().run_test() as pilot:
        pane = pilot.app.query_one(MessagePane)
        for index, raw in enumerate(RAWS):
            pane.show_entry(make_entry(raw, index))
            if index % 3 == 0:
                await pilot.pause()
        await settle(pilot)
        headers = pane.query(EntryHeader)
        assert len(headers) == 1
        assert f"line {len(RAWS) + 1}" in headers.first().content.plain


def test_a_role_that_is_no_string_is_shown_as_unknown() -> None:
    """A message whose role is a list or an object (a hostile line) is an unknown role,
    shown as its JSON: it was looked up as a key and raised TypeError (unhashable)."""
    from pitui.ui.widgets.entry_parts import message_parts

    for role in (["user"], {"name": "user"}, 7):
        parts = message_parts({"role": role, "content": "hi"})
        assert len(parts) == 2 and '"role"' in parts[1].text


async def test_a_burst_of_entries_never_ends_the_app() -> None:
    """Holding PgDn in a large session highlights an entry every 25 ms; each cancels the
    pane's render of the one before. A render cancelled while it waited for the old widgets'
    removal cancelled their tasks, the app then awaited them, and pitui ended (exit 0)."""
    blocks = [{"type": "text", "text": f"paragraph {j}"} for j in range(60)]
    blocks += [{"type": "thinking", "thinking": "folded"}] * 40  # nested: slow to remove
    entries = [make_entry(message("assistant", content=blocks), i) for i in range(12)]
    app = PaneApp()
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one(MessagePane)
        for delay in (0, 0.001):
            for entry in entries:
                pane.show_entry(entry)
                await asyncio.sleep(delay)
                assert app.is_running, delay
        await settle(pilot)
        assert app.is_running and pane.entry is entries[-1]
        assert source_text(pane).count("paragraph 59") == 1  # one entry shown, once
