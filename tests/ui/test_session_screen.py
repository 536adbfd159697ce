"""Pilot tests of the session screen: panes, tree keys, label, name, trash, copy, resume,
context links, live updates and failures."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import (
    loaded,
    open_from_picker,
    plain,
    screen_lines,
    settle,
    stub_pi,
    toast_saying,
    toasts,
)
from waiting import wait_for

from pitui.core.rows.render_text import entry_text
from pitui.core.rows.rows import FILTERS
from pitui.core.session import prefetch, reader
from pitui.demo.generate import generate_large_session, write_demo_store
from pitui.ui.handoff import Handoff
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.screens.session import SessionScreen
from pitui.ui.screens.session_header import SessionHeader
from pitui.ui.widgets.context_pane import ContextList, ContextPane
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.message_pane import EntryHeader, MessagePane

SIZE = (180, 45)
BRANCHED = "Fix rounding bug in checkout totals"


def session_path(root: Path, title: str) -> Path:
    for file in sorted(root.rglob("*.jsonl")):
        text = file.read_text()
        if title in text:
            return file
    raise AssertionError(title)


def last_entry(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text().splitlines()[-1])


async def test_an_unnamed_session_is_titled_by_its_first_message_as_in_the_list(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        screen = await open_from_picker(pilot, "typos")
        line = screen.query_one("#session-title").content.plain.splitlines()[0]
        assert line.startswith("Fix the typos in posts/") and "… (unnamed)  filter:" in line


async def test_the_title_keeps_its_two_lines_when_the_screen_narrows(app_factory: Any) -> None:
    async with app_factory().run_test(size=(200, 40)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        title = screen.query_one("#session-title")
        for width in (200, 100, 80, 150):
            await pilot.resize_terminal(width, 40)
            await pilot.pause()
            lines = title.content.plain.splitlines()
            assert len(lines) == 2 and title.size.height == 2, (width, lines)
            assert all(len(line) <= title.content_size.width for line in lines), (width, lines)
            assert lines[1].endswith("…"), "the path is cut to this width"


async def test_the_search_bar_cuts_its_hints_with_an_ellipsis_at_80_columns(
    app_factory: Any,
) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        await open_from_picker(pilot, "rounding", keep_search=True)
        [bar] = [line for line in screen_lines(pilot.app) if line.startswith("Matches: ")]
        assert bar.rstrip().endswith("… (1/1)"), bar


async def test_enter_opens_the_session_with_three_panes(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding", keep_search=True)
        tree = screen.query_one(EntryTree)
        assert tree.rows and tree.highlighted is not None
        # opened from a search: the whole tree, its matches marked, on the first of them
        assert tree.marking and tree.search_text == "rounding" and not tree.typed
        assert len(tree.rows) == len(tree.model.rows) > 3
        assert "rounding" in entry_text(tree.highlighted).lower()
        assert "Matches: rounding" in plain(screen.query_one("#tree-search"), 100)
        assert screen.query_one(MessagePane).entry is tree.highlighted
        await wait_for(pilot, lambda: bool(screen.query_one(ContextPane).rows))
        assert "rounding" in plain(screen.query_one("#session-title"), 300).lower()
        await pilot.press("escape")  # clears the marks
        await pilot.pause()
        assert pilot.app.screen is screen and not tree.search_text and not tree.marking
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, PickerScreen)


async def test_a_session_opened_from_a_search_shows_every_entry_its_matches_marked(
    app_factory: Any,
) -> None:
    """Enter on a search result: the whole tree (and what pi appends to it), the cursor on
    the first matching entry, the matches marked; Ctrl+N / Ctrl+P step through them at once;
    typing in the tree searches it afresh and shows only what matches, as Pi's /tree."""
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "cents", keep_search=True)
        tree = screen.query_one(EntryTree)
        everything = len(tree.model.rows)
        assert len(tree.rows) == everything and tree.marking
        matches = tree.model.search("cents")
        assert len(matches) >= 2 and tree.cursor_line == matches[0]
        assert "(1/" in plain(screen.query_one("#tree-search-count"))
        marked = [i for i in range(everything) if tree._search.is_match(i)]
        assert marked == matches  # and no other row
        await pilot.press("ctrl+n")
        assert tree.cursor_line == matches[1]
        assert f"(2/{len(matches)})" in plain(screen.query_one("#tree-search-count"))
        await pilot.press("ctrl+p", "ctrl+p")  # wraps to the last
        assert tree.cursor_line == matches[-1]
        # pi appends a line: it shows (a filtered tree kept it hidden)
        leaf = screen.live.session.tree.leaf
        line = {
            "type": "message",
            "id": "feedf00f",
            "parentId": leaf.id,
            "timestamp": "2025-12-08T11:00:00.000Z",
            "message": {"role": "user", "content": "appended", "timestamp": 1765191600000},
        }
        with screen.path.open("a") as handle:
            handle.write(json.dumps(line) + "\n")
        await wait_for(pilot, lambda: len(tree.rows) == everything + 1, timeout=20)
        assert tree.marking
        # typing in the tree: its own search, only the matching rows (Pi's /tree)
        await pilot.press(*"appended")
        await wait_for(pilot, lambda: tree.search_text == "appended")
        assert not tree.marking and [r.entry.id for r in tree.rows] == ["feedf00f"]
        await pilot.press("escape")
        await pilot.pause()
        assert len(tree.rows) == everything + 1 and not tree.search_text


async def test_direct_file_open_and_escape_quits(app_factory: Any, demo_root: Path) -> None:
    """`pitui FILE` has no picker: Esc quits, and the footer, the help and the palette say
    "Quit" (they said "Back to the picker")."""
    path = session_path(demo_root, "Neovim: set up pyright")
    app = app_factory(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert screen.standalone and screen.path == path
        escape = screen.active_bindings["escape"].binding
        assert escape.description == "Quit" and escape.tooltip.startswith("Quit pitui")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value is None


async def test_escape_says_back_under_the_picker(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        escape = screen.active_bindings["escape"].binding
        assert escape.description == "Back" and escape.tooltip == "Back to the picker"
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is not screen)
        assert pilot.app.is_running


async def test_moving_the_cursor_updates_message_and_context(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home")
        await settle(pilot)
        first = tree.highlighted
        assert screen.query_one(MessagePane).entry is first
        await wait_for(pilot, lambda: len(screen.query_one(ContextPane).rows) <= 2)
        await pilot.press("end")
        await settle(pilot)
        assert tree.highlighted is tree.rows[-1].entry
        await wait_for(pilot, lambda: len(screen.query_one(ContextPane).rows) > 2)


async def test_pane_toggles_and_zoom(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        panes = {
            n: screen.query_one(f"#{n}") for n in ("entry-tree", "message-pane", "context-pane")
        }
        await pilot.press("alt+x")
        assert not panes["context-pane"].display
        await pilot.press("alt+x")
        assert panes["context-pane"].display
        await pilot.press("alt+m", "alt+x")
        assert not panes["message-pane"].display and not panes["context-pane"].display
        await pilot.press("alt+t")  # the last visible pane stays
        assert panes["entry-tree"].display
        await pilot.press("alt+m", "alt+x")
        screen.query_one(EntryTree).focus()
        await pilot.press("alt+z")
        assert screen.maximized is panes["entry-tree"]
        await pilot.press("alt+z")
        assert screen.maximized is None


async def test_filter_modes_cycle_with_ctrl_o(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        seen = [tree.filter]
        counts = [len(tree.rows)]
        for _ in FILTERS:
            await pilot.press("ctrl+o")
            await settle(pilot)
            seen.append(tree.filter)
            counts.append(len(tree.rows))
        assert seen == [*FILTERS, FILTERS[0]]
        assert counts[FILTERS.index("user-only")] < counts[0] < counts[FILTERS.index("all")]
        assert "filter: default" in plain(screen.query_one("#session-title"), 300)


async def test_fold_and_unfold(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "product search")
        tree = screen.query_one(EntryTree)
        full = len(tree.rows)
        await pilot.press("alt+up")  # fold all
        assert len(tree.rows) < full
        await pilot.press("alt+down")
        assert len(tree.rows) == full
        foldable = next(i for i, row in enumerate(tree.rows) if row.foldable)
        tree.move_to(foldable)
        await pilot.press("ctrl+left")
        assert len(tree.rows) < full
        await pilot.press("ctrl+right")
        assert len(tree.rows) == full


async def test_tree_search_and_next_match(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home", *"cents")
        await settle(pilot)
        assert screen.query_one("#tree-search-bar").display and screen.focused is tree
        assert "cents" in str(screen.query_one("#tree-search").render())
        first = tree.cursor_line
        assert "cents" in entry_text(tree.highlighted).lower()
        await pilot.press("ctrl+n")
        assert tree.cursor_line != first
        await pilot.press("ctrl+p")
        assert tree.cursor_line == first


async def test_label_set_and_clear(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home")
        await settle(pilot)
        target = tree.highlighted
        tag, _, body, _ = tree.highlighted_row.display()
        await pilot.press("L")
        assert isinstance(pilot.app.screen, TextInputModal)
        title = plain(pilot.app.screen.query_one(".dialog-title"), 300).strip()
        shown = f"{tag}{body}"  # which entry it labels, as the tree shows it, on one line
        assert title == f"Label {shown if len(shown) <= 50 else shown[:49] + '…'}"
        await pilot.press(*"start", "enter")
        await wait_for(pilot, lambda: screen.live.session.tree.label_of(target.id) == "start")
        entry = last_entry(screen.path)
        assert entry["type"] == "label" and entry["targetId"] == target.id
        assert entry["label"] == "start"
        await settle(pilot)
        assert tree.highlighted.id == target.id  # the highlight did not move
        header = screen.query_one(EntryHeader)  # the message pane's, read again
        await wait_for(pilot, lambda: "[start]" in header.content.plain)
        await pilot.press("L")
        modal = pilot.app.screen
        assert modal.query_one("#text-input").value == "start"  # pre-filled
        modal.query_one("#text-input").value = ""
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.live.session.tree.label_of(target.id) is None)
        assert "label" not in last_entry(screen.path)
        await wait_for(pilot, lambda: "[start]" not in screen.query_one(EntryHeader).content.plain)


async def test_label_cancel_writes_nothing(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        before = screen.path.read_bytes()
        await pilot.press("L", "x", "escape")
        await settle(pilot)
        assert screen.path.read_bytes() == before


async def test_name_the_session(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press("ctrl+r")
        modal = pilot.app.screen
        assert modal.query_one("#text-input").value == BRANCHED
        await pilot.press(*"Cents everywhere", "enter")  # typed over the name selected
        await wait_for(pilot, lambda: screen.live.session.tree.name == "Cents everywhere")
        await wait_for(
            pilot, lambda: "Cents everywhere" in plain(screen.query_one("#session-title"), 300)
        )
        await pilot.press("escape")
        picker = pilot.app.screen
        await wait_for(
            pilot, lambda: any(r.summary.name == "Cents everywhere" for r in picker.rows)
        )


async def test_delete_while_a_tree_search_is_typed_trashes_nothing(app_factory: Any) -> None:
    """Pi's /tree ignores Delete while its search is typed; it asked to trash the session, and
    Delete then Enter trashed it."""
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press(*"reax", "left", "delete", "enter")
        await settle(pilot)
        assert pilot.app.screen is screen and screen.path.exists()


async def test_trash_cancel_then_confirm_closes_the_screen(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        path = screen.path
        await pilot.press("delete")
        assert isinstance(pilot.app.screen, ConfirmModal)
        await pilot.press("escape")
        await settle(pilot)
        assert path.exists() and pilot.app.screen is screen
        await pilot.press("delete", "enter")
        await settle(pilot)
        assert not path.exists()
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: str(path) not in {r.summary.path for r in picker.rows})


async def test_trash_while_pi_may_be_in_it_asks_then_goes_ahead(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning's "anyway" trashes it: the check must not run again under force."""
    from pitui.core.changes.removal_guard import RemovalGuard

    monkeypatch.setattr(RemovalGuard, "warning", lambda self, path: "a pi runs in its folder")
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        path = screen.path
        await pilot.press("delete", "enter")  # asked; then the warning
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal))
        await settle(pilot)
        assert path.exists()
        warning = pilot.app.screen
        assert "a pi runs in its folder" in "\n".join(screen_lines(pilot.app))
        await pilot.press("enter")  # go ahead
        await wait_for(pilot, lambda: not path.exists())
        assert warning not in pilot.app.screen_stack


async def test_trash_goes_back_to_the_picker_over_a_screen_opened_meanwhile(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trash is confirmed, and help is opened over the session before the move is done:
    the picker is shown all the same, never the trashed session ("deleted or moved")."""
    from pitui.ui import session_actions
    from pitui.ui.screens.help import HelpScreen

    release = threading.Event()
    real_trash = session_actions.trash_session

    def slow_trash(path: Any, *, force: bool = False) -> None:
        assert release.wait(10)
        real_trash(path, force=force)

    monkeypatch.setattr(session_actions, "trash_session", slow_trash)
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        path = screen.path
        await pilot.press("delete", "enter")
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        release.set()
        await wait_for(pilot, lambda: not path.exists())
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PickerScreen))
        await settle(pilot)
        assert screen not in pilot.app.screen_stack
        assert isinstance(pilot.app.screen, PickerScreen)
        picker = pilot.app.screen
        await wait_for(pilot, lambda: str(path) not in {r.summary.path for r in picker.rows})


async def test_copy_entry_text(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press("home")
        await settle(pilot)
        entry = screen.query_one(EntryTree).highlighted
        await pilot.press("ctrl+x")
        assert pilot.app.clipboard == entry_text(entry)
        assert pilot.app.clipboard


async def test_context_row_jumps_to_its_entry(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        pane = screen.query_one(ContextPane)
        await wait_for(pilot, lambda: len(pane.rows) > 2)
        tree = screen.query_one(EntryTree)
        leaf = tree.highlighted.id
        screen.query_one(ContextList).focus()
        await pilot.press("home", "enter")
        await settle(pilot)
        assert screen.focused is tree
        assert tree.highlighted.id != leaf
        assert tree.highlighted.id == pane.rows[0].entry_id


async def test_enter_on_the_header_row_resumes(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub_pi(tmp_path, monkeypatch)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        screen.query_one("#session-title").focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")  # cwd /home/demo/... is missing: "Run here"
        await pilot.pause()
    assert isinstance(app.return_value, Handoff)
    assert app.return_value.argv[-2:] == ["--session", str(screen.path)]


async def test_help_lists_the_screen_keys(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        await pilot.press("f1")
        help_screen = pilot.app.screen
        text = plain(help_screen.query(".help-dialog Static")[1], 120)
        for needle in ("shift+l", "ctrl+x", "ctrl+o", "ctrl+k"):
            assert needle in text.lower()
        await pilot.press("escape")
        assert pilot.app.screen is screen


async def test_live_append_keeps_the_highlight(app_factory: Any, demo_root: Path) -> None:
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        await pilot.press("home")
        await settle(pilot)
        kept = tree.highlighted.id
        rows = len(tree.rows)
        leaf = screen.live.session.tree.leaf
        line = {
            "type": "message",
            "id": "feedf00d",
            "parentId": leaf.id,
            "timestamp": "2025-12-08T11:00:00.000Z",
            "message": {
                "role": "user",
                "content": "live [bold]hello[/bold] \x1b]52;c;AAAA\x07",
                "timestamp": 1765191600000,
            },
        }
        with screen.path.open("a") as handle:
            handle.write(json.dumps(line) + "\n")
        await wait_for(pilot, lambda: len(tree.rows) == rows + 1, timeout=20)
        assert tree.highlighted.id == kept
        await pilot.press("end")
        assert tree.highlighted.id == "feedf00d"


async def test_a_file_replaced_by_another_program_retitles_the_header(
    app_factory: Any,
) -> None:
    """The tree showed the new file, the header kept the first message of the old one."""
    app = app_factory(watch=True)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        header = screen.query_one(SessionHeader)
        lines = screen.path.read_bytes().splitlines(keepends=True)
        first = next(i for i, line in enumerate(lines) if b'"role":"user"' in line)
        said = json.loads(lines[first])
        said["message"]["content"] = "Replaced first question"
        new = screen.path.with_name("replacement.tmp")
        new.write_bytes(b"".join([*lines[:first], (json.dumps(said) + "\n").encode()]))
        new.replace(screen.path)
        await wait_for(pilot, lambda: "Replaced first question" in plain(header, 160), timeout=20)


async def test_tree_search_counts_a_match_appended(app_factory: Any) -> None:
    """The new row showed at once, its count "(n/m)" stayed the old one until a key."""
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        count = screen.query_one("#tree-search-count")
        parent = screen.live.session.tree.leaf.id

        async def append(n: int) -> None:
            nonlocal parent
            line = {"type": "message", "id": f"feedf1{n:02d}", "parentId": parent,
                    "timestamp": "2025-12-08T11:00:00.000Z",
                    "message": {"role": "user", "content": f"zebrafinch {n}",
                                "timestamp": 1765191600000}}  # fmt: skip
            with screen.path.open("a") as handle:
                handle.write(json.dumps(line) + "\n")
            parent = line["id"]
            await wait_for(pilot, lambda: screen.live.session.tree.leaf.id == parent, timeout=20)

        await append(1)
        await append(2)
        await pilot.press(*"zebrafinch", "home")  # on the first of the two matches
        await wait_for(pilot, lambda: str(count.render()) == "(1/2)")
        await append(3)
        await wait_for(pilot, lambda: len(tree.rows) == 3)
        await settle(pilot)
        assert str(count.render()) == "(1/3)"


async def test_live_append_follows_the_leaf(app_factory: Any) -> None:
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        tree = screen.query_one(EntryTree)
        leaf = screen.live.session.tree.leaf
        await pilot.press("end")  # on the last row: follow mode
        line = {
            "type": "message",
            "id": "feedf00e",
            "parentId": leaf.id,
            "timestamp": "2025-12-08T11:00:00.000Z",
            "message": {"role": "user", "content": "next", "timestamp": 1765191600000},
        }
        with screen.path.open("a") as handle:
            handle.write(json.dumps(line) + "\n")
        await wait_for(pilot, lambda: tree.highlighted.id == "feedf00e", timeout=20)


async def test_deleted_session_shows_a_notice(app_factory: Any) -> None:
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        screen.path.unlink()
        await wait_for(pilot, lambda: screen.gone is not None, timeout=20)
        assert screen.has_class("-gone")
        assert "deleted" in plain(screen.query_one("#session-notice"), 200)


async def test_unreadable_file_is_a_notification_not_a_crash(
    app_factory: Any, tmp_path: Path
) -> None:
    bogus = tmp_path / "not-a-session.jsonl"
    bogus.write_text('{"type":"message"}\n')
    app = app_factory(sessions_root=None, session_file=bogus)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert app.is_running
        await wait_for(pilot, lambda: any("session" in m.lower() for m in toasts(app)))
        assert not any("Traceback" in m for m in toasts(app))


async def test_odd_content_is_inert(app_factory: Any, tmp_path: Path) -> None:
    root = write_demo_store(tmp_path / "odd")
    path = session_path(root, "Neovim: set up pyright")
    leaf = json.loads(path.read_text().splitlines()[-1])["id"]
    line = {
        "type": "message",
        "id": "0dd0dd00",
        "parentId": leaf,
        "timestamp": "2025-12-08T11:00:00.000Z",
        "message": {
            "role": "user",
            "content": "[bold]x[/bold] \x1b]52;c;QUJD\x07 \x1b[31m",
            "timestamp": 1765191600000,
        },
    }
    with path.open("a") as handle:
        handle.write(json.dumps(line) + "\n")
    app = app_factory(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await settle(pilot)
        svg = pilot.app.export_screenshot()
        assert "\x1b" not in svg
        assert "[bold]x[/bold]" in svg.replace("&#160;", " ")
        assert screen.query_one(EntryTree).highlighted.id == "0dd0dd00"


async def test_message_pane_failure_is_a_notification(
    app_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        pane = screen.query_one(MessagePane)

        def broken(*args: Any) -> Any:
            raise RuntimeError("renderer exploded")

        monkeypatch.setattr(MessagePane, "_first_widgets", broken)
        await pilot.press("home")
        shown = await toast_saying(pilot, "renderer exploded")
        assert shown == "Failed: rendering the entry\nRuntimeError: renderer exploded"
        assert pilot.app.screen.query("Toast.-error")  # shown as an error
        await pilot.pause()
        assert pilot.app.is_running and pilot.app.screen is screen
        assert pilot.app.return_code is None  # no traceback ended it
        monkeypatch.undo()  # the pane still works afterwards
        await pilot.press("end")
        await settle(pilot)
        assert pane.entry is screen.query_one(EntryTree).highlighted
        assert pane.query("EntryHeader")


async def test_large_session_reads_off_the_ui_thread_with_progress(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file, the text flags and the tool-call names are read by the worker, which
    reports how much it has read; the UI thread only adopts the rows."""
    path = tmp_path / "big.jsonl"
    generate_large_session(path, n_entries=3000)
    monkeypatch.setattr(reader, "CHUNK_SIZE", 64 * 1024)  # many chunks: many reports
    ui_thread = threading.current_thread()
    bulk_reads_on_ui: list[str] = []
    original = prefetch.read_lines

    def watched(entries: Any) -> Any:
        if threading.current_thread() is ui_thread:
            bulk_reads_on_ui.append("read_lines")
        return original(entries)

    monkeypatch.setattr(prefetch, "read_lines", watched)  # every bulk read goes through it
    notices: list[str] = []
    original_progress = SessionScreen.on_session_progress

    def seen(screen: SessionScreen, message: Any) -> None:
        original_progress(screen, message)
        assert screen.has_class("-reading")  # which shows the notice (see pitui.tcss)
        notices.append(plain(screen.query_one("#session-notice")).strip())

    monkeypatch.setattr(SessionScreen, "on_session_progress", seen)
    app = app_factory(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        tree = screen.query_one(EntryTree)
        assert len(tree.rows) > 1000 and any("[read:" in row.plain() for row in tree.rows)
        for _ in range(5):
            await pilot.press("pagedown")
        await settle(pilot)
        notice = screen.query_one("#session-notice")
        assert not notice.display and plain(notice).strip() == ""
        screen.add_class("-reading")  # as while reading: the notice is on screen
        await pilot.pause()
        assert notice.display and notice.region.height == 1
    assert bulk_reads_on_ui == []
    assert notices[-2].startswith("reading the session: 100% (")  # (never coalesced away)
    assert notices[-1] == "building the tree"


def _cursor_in_view(tree: EntryTree) -> bool:
    top = tree.scroll_offset.y
    return top <= tree.cursor_line < top + tree.scrollable_content_region.height


@pytest.mark.parametrize("opened", ["as a file", "from the picker"])
async def test_a_long_session_opens_with_its_cursor_in_view(
    app_factory: Any, tmp_path: Path, opened: str
) -> None:
    """The tree was centred on its leaf before its screen's layout, which did nothing: a
    session of 300 entries showed its top, the highlighted leaf out of view."""
    folder = tmp_path / "store" / "--home-dev-big-project--"
    folder.mkdir(parents=True)
    path = generate_large_session(folder / "big.jsonl", n_entries=300)
    if opened == "as a file":
        app = app_factory(sessions_root=None, session_file=path)
    else:
        app = app_factory(sessions_root=tmp_path / "store")
    async with app.run_test(size=(100, 24)) as pilot:
        if opened == "as a file":
            screen = await loaded(pilot)
        else:
            screen = await open_from_picker(pilot, "")  # Enter on the only session
        tree = screen.query_one(EntryTree)
        assert len(tree.rows) > 2 * tree.scrollable_content_region.height
        assert tree.cursor_line > tree.scrollable_content_region.height  # the leaf, far down
        assert _cursor_in_view(tree) and not tree.show_horizontal_scrollbar


@pytest.mark.parametrize("pane", ["tree", "message", "context"])
async def test_typing_in_a_zoomed_pane_shows_the_search_and_esc_clears_it_first(
    app_factory: Any, tmp_path: Path, pane: str
) -> None:
    """Zoomed, the tree's search line was hidden: typing searched out of sight, and Textual's
    Esc restored the panes before the search was cleared (README: the search first)."""
    from pitui.ui.screens.session_search import TreeSearchBar

    path = generate_large_session(tmp_path / "big.jsonl", n_entries=100)
    app = app_factory(sessions_root=None, session_file=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        tree = screen.query_one(EntryTree)
        await pilot.press(*["tab"] * ["tree", "message", "context"].index(pane), "alt+z")
        await settle(pilot)
        assert screen.maximized is not None and pane in (screen.maximized.id or "")
        await pilot.press("escape")  # nothing typed: Esc restores the panes
        await settle(pilot)
        assert screen.maximized is None and pilot.app.screen is screen
        await pilot.press("alt+z", "u", "s")
        await settle(pilot)
        bar = screen.query_one(TreeSearchBar)
        assert tree.typed == "us" and screen.maximized is None and bar.region.height == 1
        await pilot.press("alt+z", "escape")
        await settle(pilot)
        assert tree.typed == "" and screen.maximized is not None  # the search first
        await pilot.press("escape")
        await settle(pilot)
        assert screen.maximized is None and pilot.app.screen is screen


async def test_the_footer_at_80_columns_cuts_no_label_in_any_pane(
    app_factory: Any, tmp_path: Path
) -> None:
    """With the message or context pane focused their own keys pushed F1's label past the
    edge ("f1 He", or no label at all): keys are now left out whole, never Esc or F1."""
    from pitui.ui.widgets.fitting_footer import FittingFooter

    path = generate_large_session(tmp_path / "big.jsonl", n_entries=50)
    app = app_factory(sessions_root=None, session_file=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        footer = screen.query_one(FittingFooter)
        for _ in range(3):
            await settle(pilot)
            shown = [key for key in footer.query("FooterKey") if key.display]
            palette = next(key for key in shown if key.action == "command_palette")
            for key in shown:  # each whole, left of the palette's key docked at the right
                if key is not palette:
                    assert key.region.right <= palette.region.x, key.action
            assert {"leave", "help"} <= {key.action for key in shown}  # Esc: Quit (pitui FILE)
            await pilot.press("tab")


def test_its_keys_can_be_asked_of_before_it_is_built(tmp_path: Path) -> None:
    """A key typed while the screen was being built asked which of its bindings were enabled,
    and the trash key's check looked for the tree, not there yet: the app ended."""
    screen = SessionScreen(tmp_path / "s.jsonl")
    assert screen.check_action("trash", ()) is True
