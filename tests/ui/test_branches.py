"""Pilot tests of branch work: alt+n forks at an entry (after asking), alt+c edits the model's context,
alt+p pins and alt+t tags in the picker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_session_screen import SIZE, last_entry
from ui_helpers import open_from_picker, plain, settle, stub_pi, toast_saying, toasts
from waiting import wait_for

from pitui.core.session.session import Session
from pitui.core.userdata.store import UserData
from pitui.ui.handoff import Handoff
from pitui.ui.modals.choice import ChoiceModal
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.context_pane import ContextList, ContextPane
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.session_preview import SessionPreview


def forks_of(path: Path) -> list[Path]:
    return [p for p in path.parent.glob("*.jsonl") if p != path and _parent(p) == str(path)]


def _parent(path: Path) -> Any:
    return json.loads(path.read_text().splitlines()[0]).get("parentSession")


async def choose(pilot: Any, key: str) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal))
    pilot.app.screen.query_one(f"#choice-{key}").press()
    await pilot.pause()
    await settle(pilot)


async def highlight_user_message(pilot: Any, screen: SessionScreen) -> Any:
    tree = screen.query_one(EntryTree)
    await pilot.press("home")  # the first row: the opening user message
    await settle(pilot)
    assert tree.highlighted.role == "user"
    return tree.highlighted


async def test_alt_n_forks_then_opens_the_fork(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        before = screen.path.read_bytes()
        earlier = forks_of(screen.path)  # the demo store has a fork of it already
        target = await highlight_user_message(pilot, screen)
        await pilot.press("alt+n", "enter")  # asked first, then confirmed
        await choose(pilot, "open")
        await wait_for(pilot, lambda: pilot.app.screen is not screen)
        fork_screen = pilot.app.screen
        assert isinstance(fork_screen, SessionScreen)
        [fork] = set(forks_of(screen.path)) - set(earlier)
        assert fork_screen.path == fork
        assert screen.path.read_bytes() == before
        fork_session = Session(fork)
        assert fork_session.tree.leaf.id == target.id
        expected = Session(screen.path).context(target.id).to_json()
        assert fork_session.context().to_json() == expected
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is screen
        await pilot.press("escape")  # the picker lists the fork under its parent (threaded)
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        picker.query_one("#search").value = ""
        await wait_for(pilot, lambda: any(r.summary.path == str(fork) for r in picker.rows))
        index = next(i for i, r in enumerate(picker.rows) if r.summary.path == str(fork))
        parent = max(i for i in range(index) if picker.rows[i].depth < picker.rows[index].depth)
        assert picker.rows[parent].summary.path == str(screen.path)


async def test_fork_asks_then_resume_in_pi_or_stay(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub_pi(tmp_path, monkeypatch)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        earlier = set(forks_of(screen.path))
        await pilot.press(*"Fork")  # keys that type search: nothing is written
        await settle(pilot)
        assert set(forks_of(screen.path)) == earlier
        await pilot.press("escape", "alt+n", "escape")  # asked, then cancelled
        await settle(pilot)
        assert pilot.app.screen is screen and set(forks_of(screen.path)) == earlier
        await pilot.press("alt+n", "enter")  # asked, then confirmed
        await choose(pilot, "stay")
        assert pilot.app.screen is screen and len(set(forks_of(screen.path)) - earlier) == 1
        await pilot.press("alt+n", "enter")
        await choose(pilot, "pi")
        await pilot.press("enter")  # the demo cwd is missing: "Run here"
        await pilot.pause()
    assert isinstance(app.return_value, Handoff)
    forks = set(forks_of(screen.path)) - earlier
    assert len(forks) == 2 and app.return_value.argv[-2] == "--session"
    assert Path(app.return_value.argv[-1]) in forks


async def test_alt_c_omits_replaces_and_undoes(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        target = await highlight_user_message(pilot, screen)
        pane = screen.query_one(ContextPane)
        await pilot.press("alt+c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChoiceModal))
        assert not pilot.app.screen.query("#choice-undo"), "no edits yet: nothing to undo"
        await choose(pilot, "omit")
        await wait_for(pilot, lambda: last_entry(screen.path).get("type") == "context_edit")
        edit = last_entry(screen.path)
        assert edit["targetId"] == target.id and edit["replacement"] is None
        await wait_for(pilot, lambda: pane.view.edits == 1)
        assert any(row.omitted and row.entry_id == target.id for row in pane.rows)
        assert "new leaf" in pane.view.note and pane.view.tokens_cut > 0
        view = pane.view  # one measure: the estimate and what the edit cut add up
        assert view.tokens + view.tokens_cut == view.tokens_unedited
        header = str(pane.query_one(".context-header").render())
        assert f"1 edit cut ~{view.tokens_cut:,} of ~{view.tokens_unedited:,}" in header
        await pilot.press("alt+c")
        await choose(pilot, "replace")
        assert isinstance(pilot.app.screen, TextInputModal)
        await pilot.press("enter")  # an empty note: said, nothing written
        await wait_for(pilot, lambda: any("empty note" in t for t in toasts(pilot.app)))
        assert last_entry(screen.path)["id"] == edit["id"]
        await pilot.press("alt+c")
        await choose(pilot, "replace")
        await pilot.press(*"short", "enter")
        await wait_for(
            pilot, lambda: last_entry(screen.path)["replacement"] == {"content": "short"}
        )
        await settle(pilot)
        assert any(row.replaced and row.entry_id == target.id for row in pane.rows)
        await pilot.press("alt+c")
        await choose(pilot, "undo")
        await wait_for(pilot, lambda: last_entry(screen.path)["id"] != edit["id"] and
                       last_entry(screen.path)["replacement"] != {"content": "short"})  # fmt: skip
        session = Session(screen.path)
        unedited = Session(screen.path).context(session.tree.entries[-4].id).to_json()
        assert session.context().to_json()["messages"] == unedited["messages"]


async def test_alt_c_in_the_context_pane_and_refusal(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_from_picker(pilot, "rounding")
        pane = screen.query_one(ContextPane)
        await wait_for(pilot, lambda: len(pane.rows) > 2)
        screen.query_one(ContextList).focus()
        await pilot.press("end")
        row = pane.rows[-1]
        await pilot.press("alt+c")
        await choose(pilot, "omit")
        await wait_for(pilot, lambda: last_entry(screen.path).get("targetId") == row.entry_id)
        await pilot.press("escape")
        await settle(pilot)
        pilot.app.screen.query_one("#search").value = ""
        screen = await open_from_picker(pilot, "product search")  # a session with branches
        before = screen.path.read_bytes()
        tree = screen.query_one(EntryTree)
        tree.focus()
        active = screen.live.session.tree.active_path_ids()
        tree.move_to(next(i for i, r in enumerate(tree.rows) if r.entry.id not in active))
        await settle(pilot)
        await pilot.press("alt+c")  # Pi would refuse it: said before any dialog, Pi's reason
        await toast_saying(pilot, "not on the active branch")
        assert pilot.app.screen is screen and screen.path.read_bytes() == before


async def test_alt_p_pins_and_alt_t_tags(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        table = picker.query_one("#sessions")
        table.focus()
        index = max(i for i, row in enumerate(picker.rows) if row.depth == 0)  # the last thread
        table.move_to(index)
        await settle(pilot)
        last = picker.rows[index].summary
        assert index > 0
        await pilot.press("alt+p")
        await wait_for(pilot, lambda: picker.rows[0].summary.id == last.id)
        assert picker.rows[0].pinned and "● " in picker.rows[0].guide()
        assert UserData().marks().pinned == {last.id}
        picker.query_one("#sessions").focus()
        await pilot.press("home", "alt+t")
        assert isinstance(pilot.app.screen, TextInputModal)
        await pilot.press(*"work later", "enter")
        await wait_for(pilot, lambda: getattr(picker.rows[0], "tags", ()) == ("later", "work"))
        assert "[later work]" in picker.rows[0].guide()
        await pilot.press("alt+t", "ctrl+u", *"nvim lsp editor-config-stuff", "enter")
        await wait_for(pilot, lambda: len(getattr(picker.rows[0], "tags", ())) == 3)
        assert "[editor-config…] " in picker.rows[0].guide(), "cut: the title keeps its room"
        await pilot.press("alt+t", "ctrl+u", *"work later", "enter")
        await wait_for(pilot, lambda: getattr(picker.rows[0], "tags", ()) == ("later", "work"))
        preview = picker.query_one(SessionPreview)
        await wait_for(pilot, lambda: preview.summary is picker.rows[0].summary)
        await wait_for(pilot, lambda: "later work" in plain(preview.query_one("#preview-body")))
        facts = plain(preview.query_one("#preview-body"))
        assert "pinned" in facts and "tags" in facts
        picker.query_one("#search").value = "tag:work"
        await wait_for(pilot, lambda: [r.summary.id for r in picker.rows] == [last.id])
        picker.query_one("#search").value = ""
        await wait_for(pilot, lambda: len(picker.rows) > 1)
        picker.query_one("#sessions").focus()
        await pilot.press("home", "alt+p")
        await wait_for(pilot, lambda: picker.rows[index].summary.id == last.id)
        assert UserData().marks().pinned == frozenset()
