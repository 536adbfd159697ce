"""The user's Pi key remapping (`<agentDir>/keybindings.json`) applied as a Textual keymap."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from oracle import oracle_available, oracle_dir
from ui_helpers import open_from_picker, plain, started, toast_saying, toasts
from waiting import wait_for

from pitui.ui.keymap import PI_TO_PITUI, UNBOUND, load_pi_keymap, pi_keymap, textual_keys
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.widgets.entry_tree import EntryTree
from pitui.ui.widgets.session_table import SessionTable

SIZE = (160, 40)


@pytest.mark.parametrize(
    ("pi_key", "expected"),
    [
        ("ctrl+t", ["ctrl+t"]),
        ("shift+ctrl+o", ["ctrl+shift+o"]),
        ("shift+l", ["shift+l", "L"]),
        ("alt+left", ["alt+left"]),
        ("pageUp", ["pageup"]),
        ("esc", ["escape"]),
        ("f5", ["f5"]),
        ("/", ["slash"]),
        ("ctrl++", ["ctrl+plus"]),
        ("x", ["x"]),
        ("ctrl+ctrl+x", None),
        ("hyper+x", None),
        ("ctrl+X", None),
        ("pageup", None),
        ("", None),
        (7, None),
    ],
)
def test_pi_key_syntax(pi_key: Any, expected: list[str] | None) -> None:
    assert textual_keys(pi_key) == expected


def test_table_names_only_bindings_the_app_has() -> None:
    from textual.binding import Binding

    from pitui.ui.app import PituiApp
    from pitui.ui.modals.choice import ChoiceModal
    from pitui.ui.modals.confirm import ConfirmModal
    from pitui.ui.modals.export import ExportModal
    from pitui.ui.modals.text_input import TextInputModal
    from pitui.ui.screens.picker_keys import PICKER_BINDINGS
    from pitui.ui.screens.session import SessionHeader
    from pitui.ui.screens.session_keys import SESSION_BINDINGS
    from pitui.ui.widgets.session_table import SessionTable

    sources = [PICKER_BINDINGS, SESSION_BINDINGS, EntryTree.BINDINGS, SessionTable.BINDINGS]
    sources += [SessionHeader.BINDINGS, PituiApp.BINDINGS]
    sources += [m.BINDINGS for m in (ChoiceModal, ConfirmModal, ExportModal, TextInputModal)]
    ids = {b.id for src in sources for b in Binding.make_bindings(src)}
    for targets in PI_TO_PITUI.values():
        assert set(targets) <= ids


def test_bad_entries_are_named_never_raised(tmp_path: Path) -> None:
    keymap, notices = pi_keymap(
        {
            "$schema": "x",
            "app.tree.filter.noTools": "ctrl+y",
            "app.tree.filter.userOnly": ["ctrl+u", "bogus+q"],
            "app.session.rename": [],
            "app.model.select": "ctrl+l",  # Pi's, no pitui feature: quietly skipped
            "tree.typo": "ctrl+z",
        }
    )
    assert keymap == {
        "session.filter_no_tools": "ctrl+y",
        "picker.rename": UNBOUND,  # [] unbinds, as in Pi
        "session.rename": UNBOUND,
    }
    assert len(notices) == 2 and any("tree.typo" in n for n in notices)
    assert pi_keymap([1, 2]) == ({}, ["keybindings.json is not a JSON object"])
    bad = tmp_path / "keybindings.json"
    bad.write_text("{not json")
    assert load_pi_keymap(bad)[0] == {} and "not valid JSON" in load_pi_keymap(bad)[1][0]
    assert load_pi_keymap(tmp_path / "absent.json") == ({}, [])
    assert "not a regular file" in load_pi_keymap(tmp_path)[1][0]
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"app.message.copy": "ctrl+y"}).encode())
    assert load_pi_keymap(bom) == ({"session.copy": "ctrl+y"}, [])


def pi_loads(tmp_path: Path, config: dict[str, Any]) -> dict[str, Any]:
    """What Pi's own loader (KeybindingsManager.loadFromFile) makes of `config`."""
    path = tmp_path / "keybindings.json"
    path.write_text(json.dumps(config))
    module = oracle_dir() / "node_modules/@earendil-works/pi-coding-agent/dist/core/keybindings.js"
    script = (
        f"const m = await import({json.dumps(module.as_uri())});"
        f"console.log(JSON.stringify(m.KeybindingsManager.loadFromFile({json.dumps(str(path))})));"
    )
    node = oracle_available()  # installed: the pi_oracle fixture saw to it
    assert node is not None
    out = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=tmp_path,
    )
    loaded: dict[str, Any] = json.loads(out.stdout)
    return loaded


def test_pis_old_names_are_read_as_pi_reads_them(pi_oracle: Any, tmp_path: Path) -> None:
    """An older keybindings.json ("toggleSessionSort") lost every remap: "not a Pi key id".
    Pi renames them (its KEYBINDING_NAME_MIGRATIONS); the new id wins over its old name."""
    config = {
        "toggleSessionSort": "ctrl+g",
        "treeEditLabel": "alt+g",
        "renameSession": "ctrl+y",
        "app.session.rename": "ctrl+b",
        "selectDown": ["ctrl+j", "down"],
    }
    keymap, notices = pi_keymap(config)
    assert notices == []
    pis = pi_loads(tmp_path, config)
    assert pis == {
        "tui.select.down": ["ctrl+j", "down"],
        "app.session.toggleSort": "ctrl+g",
        "app.session.rename": "ctrl+b",
        "app.tree.editLabel": "alt+g",
    }
    for pi_id, keys in pis.items():
        for target in PI_TO_PITUI[pi_id]:
            assert keymap[target] == ",".join(keys if isinstance(keys, list) else [keys])


def test_pi_accepts_what_pitui_accepts(pi_oracle: Any, tmp_path: Path) -> None:
    """Pi's own loader (KeybindingsManager.loadFromFile) keeps exactly the entries pitui maps."""
    config = {
        "app.tree.filter.noTools": "ctrl+y",
        "app.tree.filter.userOnly": ["shift+ctrl+u", "alt+u"],
        "app.tree.filter.all": "ctrl+ctrl+a",
        "app.tree.editLabel": "shift+L",
        "app.tree.filter.labeledOnly": ["pageUp", "f12", "ctrl+/"],
        "app.message.copy": "hyper+c",
        "app.session.rename": "esc",
    }
    kept_by_pi = set(pi_loads(tmp_path, config))
    keymap, _ = pi_keymap(config)
    kept_by_pitui = {pi_id for pi_id in config if PI_TO_PITUI[pi_id][0] in keymap}
    assert kept_by_pitui == kept_by_pi


async def test_remapped_keys_work_in_the_app(app_factory: Any, tmp_path: Path) -> None:
    file = tmp_path / "keybindings.json"
    file.write_text(
        json.dumps(
            {
                "app.tree.filter.noTools": "ctrl+y",
                "app.session.toggleSort": "alt+o",
                "app.tree.filter.all": "nonsense+key",
            }
        )
    )
    app = app_factory(keybindings=file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot)
        await toast_saying(pilot, "app.tree.filter.all")
        sort = picker.sort
        await pilot.press("ctrl+s")  # no longer the sort key
        assert picker.sort == sort
        await pilot.press("alt+o")
        assert picker.sort != sort
        screen = await open_from_picker(pilot, "rounding", keep_search=True)
        tree = screen.query_one(EntryTree)
        await pilot.press("ctrl+t")
        assert tree.filter == "default"
        await pilot.press("ctrl+y")
        assert tree.filter == "no-tools"


async def test_a_remapped_select_down_moves_the_list_from_the_search_box(
    app_factory: Any, tmp_path: Path
) -> None:
    file = tmp_path / "keybindings.json"
    file.write_text(json.dumps({"tui.select.down": "ctrl+j"}))
    app = app_factory(keybindings=file)
    async with app.run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        table = picker.query_one(SessionTable)
        await pilot.press("ctrl+j")  # from the search box, as Pi
        assert table.cursor_line == 1 and picker.focused is picker.query_one("#search")
        await pilot.press("ctrl+j")
        assert table.cursor_line == 2
        await pilot.press("down")  # no longer the key
        assert table.cursor_line == 2


async def test_a_remap_onto_one_of_pituis_own_keys_keeps_the_pi_key_and_says_so(
    app_factory: Any, tmp_path: Path
) -> None:
    """`{"app.tree.editLabel": "alt+l"}`: Alt+L is pitui's "go to the active leaf", which the
    tree answers first. The label editor had no key at all, and nothing said why."""
    file = tmp_path / "keybindings.json"
    file.write_text(json.dumps({"app.tree.editLabel": "alt+l"}))
    app = app_factory(keybindings=file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot)
        screen = await open_from_picker(pilot, "rounding")
        said = await toast_saying(pilot, "app.tree.editLabel")
        assert "alt+l is pitui's 'Active leaf'" in said and said.endswith("stays on shift+l")
        await pilot.press("L")  # Shift+L: Pi's own key for the label editor
        await wait_for(pilot, lambda: isinstance(app.screen, TextInputModal))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_keys_the_picker_cannot_honour_are_kept_off_and_said(
    app_factory: Any, tmp_path: Path
) -> None:
    """A letter (it types into the search), pitui's palette key, and the named filter's Ctrl+N
    as moves: the picker said nothing, rename lost its key to the palette, F1 listed "x" as a
    move that typed, and Ctrl+N moved down instead of toggling named sessions (Pi's picker
    checks the named filter first)."""
    file = tmp_path / "keybindings.json"
    remaps = {
        "app.session.rename": "ctrl+k",
        "tui.select.up": ["up", "x"],
        "tui.select.down": ["down", "ctrl+n"],
    }
    file.write_text(json.dumps(remaps))
    app = app_factory(keybindings=file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot)
        said = await toast_saying(pilot, "keys kept")
        assert "app.session.rename: ctrl+k is pitui's" in said
        assert "tui.select.up: x types into the search" in said
        assert "tui.select.down: ctrl+n is pitui's" in said
        await pilot.press("x")
        await wait_for(pilot, lambda: picker.query_one("#search").value == "x")
        await pilot.press("ctrl+u", "ctrl+n")
        await wait_for(pilot, lambda: picker.named_only)
        await pilot.press("ctrl+n", "ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, TextInputModal), "rename")


async def test_a_session_key_moved_onto_f1_is_kept_off_and_help_stays(
    app_factory: Any, tmp_path: Path
) -> None:
    """`{"app.tree.foldOrUp": "f1"}`: the tree answered F1 first, so Help left the footer and
    every screen's F1, without a word."""
    file = tmp_path / "keybindings.json"
    file.write_text(json.dumps({"app.tree.foldOrUp": "f1"}))
    app = app_factory(keybindings=file)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot)
        await open_from_picker(pilot, "rounding")
        said = await toast_saying(pilot, "app.tree.foldOrUp")
        assert "f1 is pitui's 'Help'" in said
        await pilot.press("f1")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "help")


def test_alt_with_a_digit_or_sign_is_refused_with_a_notice() -> None:
    """A terminal sends Alt+. as Esc then ".", which Textual reads as a typed "." (into the
    search): the footer offered "alt+. Sort", the key never fired, and Ctrl+S was gone."""
    keymap, notices = pi_keymap(
        {
            "app.session.toggleSort": "alt+.",
            "app.session.togglePath": ["alt+1"],
            "app.session.rename": "alt+r",
        }
    )
    assert keymap == {"picker.rename": "alt+r", "session.rename": "alt+r"}
    assert len(notices) == 2 and "alt+. arrives as a typed character" in notices[0]


async def test_an_empty_list_unbinds_as_in_pi(app_factory: Any, tmp_path: Path) -> None:
    """`{"app.session.delete": []}` is how a Pi user takes the delete key away (so that it
    is never pressed by accident); pitui kept Ctrl+D on "move to the trash" and said it
    could not unbind. Now the key does nothing, and no footer, help or palette offers it."""
    from pitui.ui.modals.confirm import ConfirmModal
    from pitui.ui.screens.help import HelpScreen

    file = tmp_path / "keybindings.json"
    file.write_text(json.dumps({"app.session.delete": []}))
    app = app_factory(keybindings=file)
    async with app.run_test(size=(160, 30), notifications=True) as pilot:
        picker = await started(pilot)
        assert not any("keybindings.json" in note for note in toasts(app))
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert app.screen is picker and not isinstance(app.screen, ConfirmModal)
        footer = [k for k in picker.query("FooterKey") if k.display]
        assert "trash" not in [getattr(k, "action", "") for k in footer]
        assert "Trash" not in " ".join(plain(k, 40) for k in footer)
        titles = [command.title for command in app.get_system_commands(picker)]
        assert "Move the highlighted session to the trash" in titles  # offered, with no key
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_text = plain(app.screen.query_one(".help-dialog"), 160)
        assert "ctrl+d" not in help_text.lower() and UNBOUND not in help_text
