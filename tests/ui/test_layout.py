"""Layout: a narrow screen shows the tree and one other pane; the tree takes the larger
share and can be resized from the keyboard; theme and layout are remembered between runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import open_from_picker as open_session
from ui_helpers import settle
from waiting import wait_for

from pitui.ui.screens.session import SessionScreen
from pitui.ui.settings import Settings, from_json, load_settings, save_settings, settings_path


def shown(screen: SessionScreen) -> list[str]:
    panes = {"tree": "#entry-tree", "message": "#message-pane", "context": "#context-pane"}
    return [name for name, sel in panes.items() if screen.query_one(sel).display]


async def test_narrow_screen_shows_the_tree_and_one_pane(app_factory: Any) -> None:
    async with app_factory().run_test(size=(80, 24)) as pilot:
        screen = await open_session(pilot, "rounding")
        assert shown(screen) == ["tree", "message"]
        tree = screen.query_one("#entry-tree")
        assert tree.size.width > screen.query_one("#message-pane").size.width
        await pilot.press("alt+x")  # switch the second pane
        assert shown(screen) == ["tree", "context"]
        await pilot.press("alt+m")
        assert shown(screen) == ["tree", "message"]
        assert screen.focused is tree, "the tree keeps the keys: Down moves it, Ctrl+O filters"
        await pilot.press("tab")
        message = screen.focused
        assert message is screen.query_one("#message-pane")
        await pilot.press("alt+x", "alt+m")  # the pane that had them hidden: the shown one
        assert screen.focused is message
        await pilot.resize_terminal(160, 40)
        await pilot.pause()
        assert shown(screen) == ["tree", "message", "context"]


async def test_tree_is_widest_and_resizes_and_is_remembered(app_factory: Any) -> None:
    async with app_factory().run_test(size=(200, 50)) as pilot:
        screen = await open_session(pilot, "rounding")
        tree = screen.query_one("#entry-tree")
        others = [screen.query_one(s).size.width for s in ("#message-pane", "#context-pane")]
        assert tree.size.width > max(others)
        before = tree.size.width
        await pilot.press("shift+right", "shift+right")
        await pilot.pause()
        assert tree.size.width > before
        await pilot.press("alt+x", "f2")
        await settle(pilot)
    saved = load_settings()
    assert saved.tree_share == Settings().tree_share + 2
    assert saved.hidden_panes == ["context"] and saved.theme == "pitui-light"
    app = app_factory()
    async with app.run_test(size=(200, 50)) as pilot:
        assert app.theme == "pitui-light"
        screen = await open_session(pilot, "rounding")
        assert shown(screen) == ["tree", "message"]


def test_settings_file_never_breaks_the_start(tmp_path: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{broken")
    assert load_settings() == Settings()
    assert from_json({"theme": "nope", "tree_share": 99, "hidden_panes": "x"}) == Settings()
    every = from_json({"hidden_panes": ["tree", "message", "context"]})
    assert every.hidden_panes == []  # never every pane hidden
    save_settings(Settings(theme="pitui-light", tree_share=3))
    assert json.loads(path.read_text())["tree_share"] == 3
    assert str(path).startswith(str(tmp_path))  # PITUI_CONFIG_DIR, never the user's


async def test_an_empty_session_file_loads_once_pi_writes_it(
    app_factory: Any, demo_root: Path, tmp_path: Path
) -> None:
    source = sorted(demo_root.rglob("*.jsonl"))[0]
    empty = tmp_path / "new-session.jsonl"
    empty.write_bytes(b"")
    app = app_factory(session_file=empty)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: screen.gone is not None)
        assert "empty" in screen.gone and screen.live is None
        lines = source.read_bytes().splitlines(keepends=True)
        empty.write_bytes(b"".join(lines[:2]))  # pi writes the header and a first entry
        await wait_for(pilot, lambda: screen.live is not None, timeout=10)
        await settle(pilot)
        assert screen.gone is None and len(screen.live.session.tree.entries) == 1


def test_saving_the_layout_keeps_the_archive_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pitui.core.catalog.scan.discovery import archive_root

    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv("PITUI_ARCHIVE_DIR", raising=False)
    settings_path().write_text(json.dumps({"archive_dir": str(tmp_path / "old")}))
    save_settings(load_settings())  # the theme or the layout changed
    assert archive_root() == tmp_path / "old"


@pytest.mark.parametrize("size", [(80, 24), (120, 30)])
async def test_the_footer_shows_every_label_and_f1_help_at_80_columns(
    app_factory: Any, size: tuple[int, int]
) -> None:
    from ui_helpers import screen_lines, started

    async with app_factory().run_test(size=size) as pilot:
        await started(pilot)
        assert "f1 Help" in screen_lines(pilot.app)[-1]
        await open_session(pilot, "rounding")
        footer = screen_lines(pilot.app)[-1]
        assert "f1 Help" in footer and "esc Back" in footer and "^k palette" in footer


async def test_the_session_footer_shows_alt_w_files_where_it_fits_and_always_f1(
    app_factory: Any,
) -> None:
    from ui_helpers import screen_lines, started

    async with app_factory().run_test(size=(160, 30)) as pilot:
        await started(pilot)
        await open_session(pilot, "rounding")
        for width, shown in ((160, True), (80, False), (160, True)):
            await pilot.resize_terminal(width, 30)
            await settle(pilot)
            footer = screen_lines(pilot.app)[-1]
            assert ("Files" in footer) is shown, footer
            assert "f1 Help" in footer and "esc Back" in footer, footer
