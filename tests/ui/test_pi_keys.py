"""Pi's keys: the session screen speaks Pi 1.6.0's /tree keys (dist/core/keybindings.js), and
the picker resumes and forks from its search box without typing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from ui_helpers import open_from_picker as open_session
from ui_helpers import plain, settle, started, stub_pi
from waiting import wait_for

from pitui.ui.handoff import Handoff
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.widgets.context_pane import ContextList
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.message_pane import MessagePane

SIZE = (160, 40)


@pytest.mark.parametrize(
    ("key", "mode"),
    [
        ("ctrl+t", "no-tools"),
        ("ctrl+u", "user-only"),
        ("ctrl+l", "labeled-only"),
        ("ctrl+a", "all"),
    ],
)
async def test_direct_filter_keys_toggle_with_default(
    app_factory: Any, key: str, mode: str
) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        theme = pilot.app.theme
        await pilot.press(key)
        assert tree.filter == mode
        await pilot.press(key)  # as Pi: the same key goes back to the default view
        assert tree.filter == "default"
        await pilot.press(key, "ctrl+d")  # Ctrl+D: the default view, never the trash
        assert tree.filter == "default"
        assert pilot.app.screen is screen and not isinstance(pilot.app.screen, ConfirmModal)
        assert pilot.app.theme == theme  # Ctrl+T is no longer the theme


async def test_cycle_back_and_page_keys(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 12)) as pilot:
        screen = await open_session(pilot, "compactions")
        tree = screen.query_one(EntryTree)
        await pilot.press("ctrl+shift+o")
        assert tree.filter == "all"  # default, cycled backwards
        await pilot.press("home")
        page = tree.scrollable_content_region.height
        assert len(tree.rows) > page
        await pilot.press("right")  # Pi: Right pages down
        assert tree.cursor_line == page
        await pilot.press("left")
        assert tree.cursor_line == 0


async def test_shift_t_label_times_and_delete_trashes(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("shift+t")
        assert tree.label_times
        await pilot.press("delete")
        assert isinstance(pilot.app.screen, ConfirmModal)
        await pilot.press("escape")


@pytest.mark.parametrize("remap", [None, "alt+j"])
async def test_label_times_from_every_pane_with_the_users_keys(
    app_factory: Any, tmp_path: Path, remap: str | None
) -> None:
    """Shift+T was the tree's alone: from the message or context pane it typed "T" into the
    search instead, where Shift+L (label) works from every pane."""
    keybindings = tmp_path / "keybindings.json"
    if remap:
        keybindings.write_text(json.dumps({"app.tree.toggleLabelTimestamp": remap}))
    app = app_factory(keybindings=keybindings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        for pane in (MessagePane, ContextList):
            screen.set_focus(screen.query_one(pane))
            await settle(pilot)
            shown = tree.label_times
            await pilot.press(remap or "T")  # a terminal sends Shift+T as "T"
            await settle(pilot)
            assert tree.label_times is not shown and tree.typed == ""
        if remap:
            screen.set_focus(screen.query_one(MessagePane))
            await pilot.press("T")  # no longer the key: it types, as in Pi
            await settle(pilot)
            assert tree.typed == "T"


async def test_theme_toggle_is_in_the_palette_and_f2(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        titles = [c.title for c in pilot.app.get_system_commands(screen)]
        assert "Move the session to the trash (del)" in titles
        assert "Dark / light theme (f2)" in titles


@pytest.mark.parametrize(("key", "fork"), [("ctrl+o", False), ("alt+r", True)])
async def test_picker_resume_and_fork_from_the_search_box(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str, fork: bool
) -> None:
    stub_pi(tmp_path, monkeypatch)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await pilot.press(*"zsh")
        await wait_for(pilot, lambda: not picker.search_pending)
        path = Path(picker.rows[0].summary.path)
        await pilot.press(key)
        assert picker.query_one("#search").value == "zsh"  # nothing typed
        await pilot.pause()
        if fork:  # a fork asks first
            assert isinstance(app.screen, ConfirmModal)
            await pilot.press("enter")
            await pilot.pause()
        if app.is_running and app.screen is not picker:
            await pilot.press("enter")  # the session's folder is missing: "Run here"
            await pilot.pause()
    assert isinstance(app.return_value, Handoff)
    assert app.return_value.argv == ["pi", *(["--fork"] if fork else ["--session"]), str(path)]


async def test_ctrl_e_in_the_picker_ends_the_search_line_as_in_pi(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pi's picker hands Ctrl+E to its search box (`tui.editor.cursorLineEnd`); it must not
    start pi, as it did when it was pitui's resume key."""
    stub_pi(tmp_path, monkeypatch)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await pilot.press(*"zsh", "home", "ctrl+e", "x")
        await settle(pilot)
        assert picker.query_one("#search").value == "zshx"
        assert app.is_running and app.screen is picker


async def test_a_search_that_shows_nothing_keeps_the_entry_to_come_back_to(
    app_factory: Any,
) -> None:
    """As Pi's /tree (`lastSelectedId`): erasing a search that matched nothing highlights the
    entry highlighted before it, not the first; a label set next went to the first entry."""
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home", "down", "down", "down")
        before = tree.highlighted
        assert before is not None and tree.cursor_line == 3
        await pilot.press(*"zzqx")
        await wait_for(pilot, lambda: tree.search_text == "zzqx" and not tree.rows)
        await pilot.press(*["backspace"] * 4)
        await wait_for(pilot, lambda: tree.search_text == "" and bool(tree.rows))
        assert tree.highlighted == before


async def test_typing_filters_the_tree_with_a_counter_and_esc_clears_first(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        full = len(tree.rows)
        await pilot.press("c", "e")  # typing searches; the tree keeps the focus
        assert screen.focused is tree and tree.typed == "ce"
        await pilot.press(*"nts")
        await wait_for(pilot, lambda: tree.search_text == "cents")
        await settle(pilot)
        shown = len(tree.rows)
        assert 0 < shown < full
        model = tree.model
        assert model is not None
        expected = [model.rows[i].entry.id for i in model.search("cents")]
        assert [r.entry.id for r in tree.rows] == expected  # Pi's tokens over Pi's text
        count = screen.query_one("#tree-search-count")
        assert str(count.render()) == f"({tree.cursor_line + 1}/{shown})"
        assert screen.focused is tree and len(tree.rows) == shown  # the tree kept the keys
        await pilot.press("home", "ctrl+n")
        assert str(count.render()) == f"(2/{shown})"
        await pilot.press("escape")  # clears the search first
        assert pilot.app.screen is screen and len(tree.rows) == full and not tree.search_text
        await pilot.press("escape")  # then leaves
        assert isinstance(pilot.app.screen, PickerScreen)


async def test_two_words_are_and_ed(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press(*"cents total")
        await wait_for(pilot, lambda: tree.search_text == "cents total")
        await settle(pilot)
        for row in tree.rows:
            text = row.search_text()
            assert "cents" in text and "total" in text


def help_text(help_screen: Any) -> str:
    """What the help screen says, each line whole (wide enough that nothing wraps)."""
    return "\n".join(plain(static, 400) for static in help_screen.query(Static))


async def test_help_names_the_new_keys(app_factory: Any) -> None:
    from pitui.ui.screens.help import HelpScreen

    async with app_factory().run_test(size=(160, 60)) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await pilot.press("f1")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        shown = help_text(help_screen)
        assert "ctrl+o" in shown and "alt+r" in shown
        # only what each key does here: not the search box's ctrl+e / ctrl+d / ctrl+k
        for elsewhere in ("Go to end", "Delete character right", "Delete all to the right"):
            assert elsewhere not in shown, elsewhere
        assert "types in the search box" in shown
        await pilot.press("escape")
        screen = await open_session(pilot, "rounding")
        await pilot.press("f1")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.under is screen
        keys = help_text(help_screen)
        for key in ("ctrl+t", "ctrl+u", "ctrl+l", "ctrl+a", "ctrl+d", "delete", "f2"):
            assert key in keys, key


async def test_help_lists_no_sideways_scrolling_where_nothing_scrolls_sideways(
    app_factory: Any,
) -> None:
    """Textual's Ctrl+PageUp "Page Left" / Ctrl+PageDown "Page Right" mean nothing on the tree
    and the panes, which never scroll sideways: the help does not list them."""
    from pitui.ui.screens.help import HelpScreen

    async with app_factory().run_test(size=(160, 60)) as pilot:
        screen = await open_session(pilot, "rounding")
        panes = [screen.query_one(kind) for kind in (EntryTree, MessagePane, ContextList)]
        for pane in panes:
            pane.focus()
            await pilot.pause()
            assert screen.focused is pane
            await pilot.press("f1")
            help_screen = pilot.app.screen
            assert isinstance(help_screen, HelpScreen)
            shown = help_text(help_screen)
            for meaningless in ("Page Left", "Page Right", "Scroll Left", "Scroll Right"):
                assert meaningless not in shown, (pane, meaningless)
            assert "Go to the active leaf" in shown or pane is not panes[0]
            await pilot.press("escape")
            await pilot.pause()


async def test_alt_l_goes_to_the_active_leaf_from_every_pane(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home", "alt+l")  # the tree has the focus
        await settle(pilot)
        leaf = tree.highlighted.id  # the active leaf's row (or its nearest shown ancestor's)
        for pane in (MessagePane, ContextList):
            tree.focus()
            await pilot.press("home")
            await settle(pilot)
            assert tree.highlighted.id != leaf
            screen.query_one(pane).focus()
            await pilot.pause()
            await pilot.press("alt+l")
            await settle(pilot)
            assert tree.highlighted.id == leaf, pane
            assert not tree.typed  # nothing typed into the search


async def test_ctrl_c_with_nothing_selected_says_which_key_quits(app_factory: Any) -> None:
    from ui_helpers import toast_saying

    async with app_factory().run_test(size=(160, 40), notifications=True) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await pilot.press(*"neo", "ctrl+c")
        await toast_saying(pilot, "Ctrl+Q quits pitui")
        assert pilot.app.is_running and picker.query_one("#search").value == "neo"
        await pilot.press("ctrl+u")
        await open_session(pilot, "rounding")
        await pilot.press("ctrl+c")
        assert pilot.app.is_running


@pytest.mark.parametrize("remap", [None, ["escape", "ctrl+g"]])
async def test_dialogs_cancel_on_pis_cancel_keys(
    app_factory: Any, tmp_path: Path, remap: list[str] | None
) -> None:
    """Pi's `tui.select.cancel` (Esc and Ctrl+C) cancels its confirmations and its rename;
    Ctrl+C only said which key quits, and a user's remap of it was not heard in a dialog."""
    from pitui.ui.modals.confirm import ConfirmModal

    keybindings = tmp_path / "keybindings.json"
    if remap:
        keybindings.write_text(json.dumps({"tui.select.cancel": remap}))
    async with app_factory(keybindings=keybindings).run_test(size=SIZE) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned and picker.rows)
        path = Path(picker.highlighted.path)
        for cancel in ["ctrl+g"] if remap else ["ctrl+c"]:
            await pilot.press("ctrl+d")
            await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal), "asked")
            await pilot.press(cancel)
            await wait_for(pilot, lambda: pilot.app.screen is picker, "the dialog cancelled")
        if remap:  # no longer a cancel key
            await pilot.press("ctrl+d")
            await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal), "asked")
            await pilot.press("ctrl+c")
            await settle(pilot)
            assert isinstance(pilot.app.screen, ConfirmModal)
            await pilot.press("escape")
        assert path.exists()
