"""The message pane shows session text literally: text that looks like an HTML tag is not
dropped by the Markdown rendering, bidi controls and lone surrogates are shown, not sent."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Static
from waiting import wait_for

from pitui.core.session.entry import Entry
from pitui.ui.widgets.message_pane import MessagePane

TS = "2026-01-02T03:04:05.000Z"
TYPED = "<osc52> then <bel> and\n\n<details>\n<summary>open me</summary>\nbody\n</details>\n\nend"


class PaneApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MessagePane()


def entry(content: Any) -> Entry:
    raw = {"type": "message", "id": "e1", "parentId": None, "timestamp": TS}
    return Entry.from_raw({**raw, "message": {"role": "user", "content": content}}, 2, 0, 0)


def shown(pane: MessagePane) -> str:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    for static in pane.query(".part").results(Static):
        console.print(static.content)
    return out.getvalue()


async def show(content: Any) -> str:
    async with PaneApp().run_test(size=(100, 40)) as pilot:
        pane = pilot.app.query_one(MessagePane)
        pane.show_entry(entry(content), None)
        await wait_for(pilot, lambda: bool(pane.query(".part")), "the pane's parts")
        return shown(pane)


async def test_html_like_text_is_shown_literally() -> None:
    text = await show(TYPED)
    for piece in (
        "<osc52> then <bel> and",
        "<details>",
        "<summary>open me</summary>",
        "</details>",
    ):
        assert piece in text, text
    assert "end" in text


async def test_html_in_text_blocks_and_markdown_still_renders() -> None:
    text = await show([{"type": "text", "text": "**bold** and <b>tag</b> and `<code>`"}])
    assert "bold and <b>tag</b> and <code>" in text  # Markdown rendered, tags kept


async def test_bidi_and_lone_surrogates_are_shown() -> None:
    text = await show("a\u202eb \ud83d c")
    assert "a<U+202E>b \ufffd c" in text
