"""Layouts that hold at every size: focus never moves a dialog's controls (a click lands on
what was drawn), dialogs keep every button on screen at 40 columns, and the panes, the
picker and the tables give the text they exist for room to be read at 40, 80 and 200
columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_branches import highlight_user_message
from textual.containers import ScrollableContainer
from ui_helpers import open_from_picker, plain, screen_lines, settle, started
from waiting import wait_for

from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.modals.export import ExportModal
from pitui.ui.widgets.context_pane import ContextList
from pitui.ui.widgets.session_preview import SessionPreview
from pitui.ui.widgets.session_table import SessionTable


def regions(screen: Any) -> dict[str, Any]:
    """Where each of the dialog's controls is drawn, by id."""
    return {w.id: w.region for w in screen.query("Button, Checkbox, RadioSet, Input") if w.id}


async def test_focus_moves_no_control_of_the_export_dialog(app_factory: Any) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await pilot.press("alt+e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.pause()
        modal = pilot.app.screen
        before = regions(modal)
        for target in before:
            modal.query_one(f"#{target}").focus()
            await pilot.pause()
            assert regions(modal) == before, f"focus on #{target} moved the controls"
        redact = modal.query_one("#export-redact")
        modal.query_one("#format-html").focus()
        await pilot.click("#export-context")  # a click focuses it: the next click lands
        await pilot.click("#export-redact")  # where Redact secrets was drawn
        await pilot.pause()
        assert modal.query_one("#export-context").value is True
        assert redact.value is True and modal.focused is redact


async def test_the_context_edit_dialog_keeps_its_buttons_on_screen_at_40_columns(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await highlight_user_message(pilot, screen)
        await pilot.press("alt+c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal))
        for size in ((40, 12), (40, 24), (60, 20)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            whole = pilot.app.screen.region
            for button in pilot.app.screen.query("Button"):
                shown = button.region
                assert shown.width and whole.contains_region(shown), (size, button.label)
                assert str(button.label) in str(button.render())
            before = regions(pilot.app.screen)
            for button in pilot.app.screen.query("Button"):
                button.focus()
                await pilot.pause()
                assert regions(pilot.app.screen) == before, "focus moved the buttons"
        await pilot.click("#choice-cancel")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, ChoiceModal), "the Cancel button is clickable"


async def test_a_narrow_picker_gives_the_list_the_width(app_factory: Any) -> None:
    async with app_factory().run_test(size=(40, 12)) as pilot:
        picker = await started(pilot)
        preview = picker.query_one(SessionPreview)
        table = picker.query_one(SessionTable)
        assert not preview.display and table.size.width >= 36
        header = table.render_line(0).text
        assert "Session" in header and "Age" in header, "the columns kept fit the list"
        first = table.render_line(1).text.strip()
        assert len(first.split("  ")[0]) >= 20, "the title has its room"
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert preview.display and preview.region.width >= 20
        await pilot.resize_terminal(40, 12)
        await settle(pilot)
        assert not preview.display


async def test_the_title_keeps_its_room_beside_a_long_tag_and_the_preview_wraps(
    app_factory: Any,
) -> None:
    tag = "money-bugs-and-other-very-long-things"
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = await started(pilot)
        await pilot.press("alt+t", *f"urgent {tag}", "enter")
        await wait_for(pilot, lambda: len(getattr(picker.rows[0], "tags", ())) == 2)
        await settle(pilot)
        summary = picker.rows[0].summary
        title = summary.name or summary.first_message
        row = picker.query_one(SessionTable).render_line(1).text
        assert title[:14] in row, row
        preview = picker.query_one(SessionPreview)
        await wait_for(pilot, lambda: tag[:10] in plain(preview.query_one("#preview-body"), 80))
        body = plain(preview.query_one("#preview-body"), preview.scrollable_content_region.width)
        joined = "".join(line.strip() for line in body.splitlines())
        for whole in (tag, Path(summary.path).name, summary.cwd.removeprefix("/home/demo/")):
            assert whole in joined, f"{whole} cut in the preview"


async def test_the_context_pane_shows_the_messages_at_80_and_200_columns(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press("alt+x", "end")
        await settle(pilot)
        for size, least in (((80, 24), 18), ((200, 50), 36)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            rows = screen.query_one(ContextList)
            assert rows.rows and rows.region.width < 60
            for y, row in enumerate(rows.rows[: rows.size.height]):
                if row.role is None or len(row.text) < least:
                    continue
                shown = rows.render_line(y).text
                assert row.text[:least] in shown, (size, shown)


async def test_the_stats_heading_stays_and_regrouping_brings_the_table_back(
    app_factory: Any,
) -> None:
    from test_stats_screen import _group_by, _stats

    async with app_factory().run_test(size=(80, 24)) as pilot:
        await started(pilot)
        screen = await _stats(pilot)
        await _group_by(pilot, screen, "session")  # two lines a session: taller than the screen
        table = screen.query_one("#stats-table")
        for page in screen.query(ScrollableContainer):  # wherever the screen is scrolled to
            page.scroll_end(animate=False)  # (the table's rows, if they scroll on their own)
            await pilot.pause()
            lines = [line.strip() for line in screen_lines(pilot.app)]
            if any(line.endswith(".jsonl") or line.startswith("TOTAL") for line in lines):
                assert any(line.split()[:2] == ["SESSION", "Sess"] for line in lines), page
        assert table.region.y < pilot.app.size.height, "the table is on screen"
        await pilot.press("b")
        await wait_for(pilot, lambda: screen.stats.by != "session")
        await settle(pilot)
        by = screen.stats.by.upper()
        assert any(line.split()[:1] == [by] for line in screen_lines(pilot.app)), "in view"


async def test_the_sizes_view_shows_what_each_large_entry_starts_with_at_80_columns(
    app_factory: Any,
) -> None:
    from test_sizes_view import open_sizes

    async with app_factory().run_test(size=(80, 24)) as pilot:
        await open_from_picker(pilot, "product search")
        view = await open_sizes(pilot)
        lines = screen_lines(pilot.app)
        heading = next(line for line in lines if "Largest entries" in line)
        assert "Starts with" in heading, heading
        assert heading.index("Bytes") < 24, "the id column as wide as an id"
        shown = {line.split()[0] for line in lines[lines.index(heading) + 1 :] if line.strip()}
        for entry in view.largest[:5]:
            assert entry.id and entry.id[:8] in "".join(shown)


async def test_the_help_says_what_each_key_does_at_40_columns(app_factory: Any) -> None:
    """The keys were never wrapped: at 40 columns "left, ctrl+b" took the dialog and what it
    does was cut off."""
    async with app_factory().run_test(size=(40, 24)) as pilot:
        await started(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: "pitui keys" in "\n".join(screen_lines(pilot.app)))
        await settle(pilot)
        text = " ".join(" ".join(screen_lines(pilot.app)).split())
        assert "Cursor left" in text or "Cursor" in text, text
