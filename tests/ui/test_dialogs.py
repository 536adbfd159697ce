"""Dialogs wrap their text and keep the question and the buttons in view; a file name or
folder stays on one line, cut in the middle when the dialog is too narrow; at 80x24 every
button and option shows its whole label."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.widgets import Button, Label
from ui_helpers import plain, screen_lines, settle, toasts
from waiting import wait_for

from pitui.ui.display_text import middle_ellipsis
from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.dialog_body import PathLine, PathText
from pitui.ui.modals.export import ExportModal
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.toasts import KeepsErrorToasts

REASON = (
    "2026-04-12T09-00-00-000Z_e4929284-1c7d-7a33-9d3a-5be1c0ffee42.jsonl is open for "
    "writing by pid 48213 (node) and changed 2 seconds ago"
)


def dialog_lines(app: Any) -> list[str]:
    """The screen's lines inside the dialog's side borders, stripped."""
    lines = []
    for line in screen_lines(app):
        start, end = line.find("█"), line.rfind("█")
        lines.append(line[start + 1 : end].strip() if end > start else line.strip())
    return lines


class DialogApp(App[None]):
    CSS_PATH = str(Path(__file__).resolve().parents[2] / "pitui.tcss")


@pytest.mark.parametrize("size", [(80, 24), (50, 16)])
async def test_long_warning_wraps_and_keeps_question_and_buttons(size: tuple[int, int]) -> None:
    app = DialogApp()
    async with app.run_test(size=size) as pilot:
        modal = ConfirmModal(
            "Rename: pi may be writing this session",
            REASON + "\n" + "more detail. " * 60,
            confirm_label="Write anyway",
            question="Write anyway?",
        )
        app.push_screen(modal)
        await pilot.pause()
        body = modal.query_one(".dialog-body", Label)
        text = plain(body, body.size.width)
        assert "pid 48213" in text.replace("\n", " ")  # nothing cut away
        screen = modal.region
        for widget in [modal.query_one(".dialog-question"), *modal.query(Button)]:
            assert widget.region.height > 0 and screen.contains_region(widget.region)


def test_middle_ellipsis_keeps_both_ends() -> None:
    path = "~/.pi/agent/sessions/--home-me-projects-x--/2026-04-12T09-00-00-000Z_e49.jsonl"
    short = middle_ellipsis(path, 40)
    assert len(short) == 40 and "…" in short
    assert short.startswith("~/.pi/agent/") and short.endswith("_e49.jsonl")
    assert middle_ellipsis("short", 40) == "short"


async def test_trash_dialog_names_the_session(app_factory: Any, tmp_path: Path) -> None:
    async with app_factory(home=str(tmp_path)).run_test(size=(80, 24)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        summary = picker.rows[0].summary
        await pilot.press("ctrl+d")
        modal = pilot.app.screen
        assert isinstance(modal, ConfirmModal)
        await pilot.pause()
        lines = dialog_lines(pilot.app)
        title = summary.name or summary.first_message
        path = Path(summary.path)
        at = lines.index(title)
        assert lines[at + 1] == path.name  # whole at 80 columns
        folder = lines[at + 2]
        assert folder.startswith("in ~/") and folder.endswith(path.parent.name)
        await pilot.press("escape")


NAME = "2026-04-12T09-00-00-000Z_e4929284-1c7d-7a33-9d3a-5be1c0ffee42.jsonl"  # Pi's 67


@pytest.mark.parametrize(("width", "whole"), [(80, True), (60, False), (40, False)])
async def test_a_file_name_stays_on_one_line(width: int, whole: bool) -> None:
    app = DialogApp()
    async with app.run_test(size=(width, 24)) as pilot:
        folder = "/home/me/.pi/agent/sessions/--home-me-projects-a-long-name--"
        body = ["Some words that wrap as words do.", PathText(NAME), PathText(folder, "in ")]
        app.push_screen(ConfirmModal("Title", body))
        await pilot.pause()
        lines = dialog_lines(app)
        name_line = next(line for line in lines if line.startswith(NAME[:12]))
        assert name_line.endswith(NAME[-16:])  # the name's end is on the same line
        assert (name_line == NAME) is whole and ("…" in name_line) is not whole
        folder_line = next(line for line in lines if line.startswith("in /home/"))
        assert folder_line.endswith("-a-long-name--")
        assert not any(line.startswith(("jsonl", "l ", "-a-long")) for line in lines)
        for part in app.screen.query(PathLine):
            assert part.region.height == 1


async def test_context_edit_and_export_dialogs_show_every_label_at_80x24(
    app_factory: Any,
) -> None:
    from test_branches import highlight_user_message
    from ui_helpers import open_from_picker

    async with app_factory().run_test(size=(80, 24)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await highlight_user_message(pilot, screen)
        await pilot.press("alt+c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal))
        await pilot.pause()
        shown = "\n".join(screen_lines(pilot.app))
        labels = ["Omit", "Replace with a note", "Cancel"]  # no edit yet: no "Undo edits"
        assert any(all(label in line for label in labels) for line in shown.splitlines())
        await pilot.press("escape", "alt+e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.pause()
        shown = "\n".join(screen_lines(pilot.app))
        for label in ["Markdown", "HTML", "Pi session (.jsonl)", "Redact secrets", "Export"]:
            assert label in shown
        await pilot.press("escape")


async def test_fork_dialogs_show_the_file_names_whole_at_80x24(app_factory: Any) -> None:
    from test_branches import forks_of, highlight_user_message
    from ui_helpers import open_from_picker

    async with app_factory().run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        earlier = set(forks_of(screen.path))
        await highlight_user_message(pilot, screen)
        await pilot.press("alt+n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal))
        await pilot.pause()
        lines = dialog_lines(pilot.app)
        assert screen.path.name in lines
        folder = next(line for line in lines if line.startswith("in /"))
        assert folder.endswith(screen.path.parent.name)  # cut in the middle, if at all
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal))
        await pilot.pause()
        [fork] = set(forks_of(screen.path)) - earlier
        lines = dialog_lines(pilot.app)
        assert fork.name in lines
        assert not pilot.app.screen.query("Toast")  # "Writing the fork..." covered the buttons
        await pilot.press("escape")


DIALOGS = {
    "confirm": lambda: ConfirmModal("Trash it?", "a session", confirm_label="Trash"),
    "choice": lambda: ChoiceModal("Folder gone", "run where?", [("here", "Here")]),
    "text": lambda: TextInputModal("Name the session", "old name"),
    "export": lambda: ExportModal("Export", "the active branch", Path("/tmp")),
}


@pytest.mark.parametrize("kind", sorted(DIALOGS))
async def test_a_dialog_clears_the_toasts_of_earlier_actions(kind: str) -> None:
    """An earlier action's toast ("Pinned", "Copied") sat over the dialog's buttons at
    80x24 for its few seconds."""
    app = DialogApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Copied the entry's text\nas Markdown", timeout=30)
        await wait_for(pilot, lambda: bool(toasts(app)))
        app.push_screen(DIALOGS[kind]())
        await pilot.pause()
        await pilot.pause()
        assert not toasts(app)
        app.notify("Written")  # what is said while the dialog is open still shows
        await wait_for(pilot, lambda: toasts(app) == ["Written"])


CANCELLED = {"confirm": False, "choice": None, "text": None, "export": None}


@pytest.mark.parametrize("kind", sorted(DIALOGS))
async def test_a_click_around_a_dialog_cancels_it_and_one_inside_does_not(kind: str) -> None:
    """The text dialogs have no button: with the mouse alone they could not be left."""
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        answers: list[object] = []
        app.push_screen(DIALOGS[kind](), callback=answers.append)
        await pilot.pause()
        dialog = app.screen
        inside = dialog.query_one(".dialog-title")
        await pilot.click(inside)
        await pilot.pause()
        assert app.screen is dialog and answers == []
        await pilot.click(offset=(1, 1))  # the dimmed screen around it
        await pilot.pause()
        assert app.screen is not dialog and answers == [CANCELLED[kind]]


class ErrorKeepingApp(KeepsErrorToasts, DialogApp):
    pass


@pytest.mark.parametrize("kind", sorted(DIALOGS))
async def test_a_dialog_leaves_an_error_for_the_rest_of_its_time(kind: str) -> None:
    """Clearing every toast also took away an error the user had not read yet."""
    app = ErrorKeepingApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Copied", timeout=30)
        app.notify("Cannot label: the file is gone", severity="error", timeout=1.5)
        await wait_for(pilot, lambda: len(toasts(app)) == 2)
        app.push_screen(DIALOGS[kind]())
        await pilot.pause()
        await pilot.pause()
        assert toasts(app) == ["Cannot label: the file is gone"]
        await wait_for(pilot, lambda: not toasts(app), "the error's time to end", timeout=3)


async def test_a_paste_into_a_name_or_label_keeps_every_line_as_pi() -> None:
    """Textual's field kept the first line of a paste and dropped the rest without a sign;
    Pi's editor keeps it all, its line breaks removed and each tab four spaces."""
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        answers: list[str | None] = []
        app.push_screen(TextInputModal("Name the session", "old"), callback=answers.append)
        await pilot.pause()
        app.screen.query_one("#text-input").post_message(
            events.Paste("first part\r\nsecond\tpart\nthird")
        )
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert answers == ["first partsecond    partthird"]  # the paste replaced the selection


@pytest.mark.parametrize(
    ("value", "keys", "answer"),
    [
        ("old name", ["enter"], None),  # nothing changed: nothing to write
        ("old name", ["end", *" two", "enter"], "old name two"),
        ("na\u202eme\tTAB\u0007bel", ["enter"], None),  # not put in the field, not written
        ("na\u202eme\tTAB\u0007bel", [*"fresh", "enter"], "fresh"),
    ],
)
async def test_enter_on_the_text_as_given_writes_nothing_and_hidden_characters_stay(
    value: str, keys: list[str], answer: str | None
) -> None:
    """The field held the text as shown (U+202E as "<U+202E>", BEL as "␇", a tab as a space),
    and Enter wrote that back: a rename or label that changed nothing replaced the real
    characters with the markers."""
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        answers: list[str | None] = []
        app.push_screen(TextInputModal("Name the session", value), callback=answers.append)
        await pilot.pause()
        field = app.screen.query_one("#text-input")
        assert "<U+202E>" not in field.value and "\u202e" not in field.value
        await pilot.press(*keys)
        await pilot.pause()
    assert answers == [answer]


@pytest.mark.parametrize(
    ("keys", "value"),
    [
        (["ctrl+b", "ctrl+b", "X"], "abc dXef"),
        (["home", "ctrl+f", "X"], "aXbc def"),
        (["alt+b", "X"], "abc Xdef"),
        (["home", "alt+f", "X"], "abcX def"),
        (["home", "alt+d"], " def"),
        (["home", "ctrl+k"], ""),  # not the palette: Pi's delete to the end
    ],
)
async def test_pis_editor_keys_edit_the_field(keys: list[str], value: str) -> None:
    """Ctrl+B did not move, Alt+D did nothing, Ctrl+K opened the palette over the dialog."""
    app = DialogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(TextInputModal("Name the session", ""))
        await pilot.pause()
        await pilot.press(*"abc def", *keys)
        await pilot.pause()
        assert app.screen.query_one("#text-input").value == value
