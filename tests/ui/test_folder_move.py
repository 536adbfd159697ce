"""Issue 36 in the picker: a session whose folder is gone says so in its preview, and Alt+M
(in the footer then, and in the help) moves every session of that folder where the folder is
now: typed (the old path pre-filled and selected, folders completed), counted, asked, moved
as `pitui move` moves them; the list then shows them under the new folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual import events
from ui_helpers import plain, screen_lines, started, toast_saying
from waiting import wait_for

from pitui.core.catalog.scan import discovery
from pitui.ui.folder_move import complete_folder
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.modals.text_input import TextInputModal
from pitui.ui.screens.help import HelpScreen
from pitui.ui.widgets.session_preview import SessionPreview

SIZE = (140, 36)
BLOG = "/home/demo/writing/blog"  # two demo sessions; no such folder on this machine


def shown(pilot: Any) -> str:
    return "\n".join(screen_lines(pilot.app))


def header_cwd(path: Path) -> str:
    return json.loads(path.read_text().splitlines()[0])["cwd"]


async def highlight_cwd(pilot: Any, picker: Any, cwd: str) -> None:
    await pilot.press(*f"cwd:{cwd}")
    await wait_for(pilot, lambda: not picker.search_pending, "the search")
    preview = picker.query_one(SessionPreview)
    await wait_for(pilot, lambda: preview.summary is not None and not preview.reading)


async def test_alt_m_moves_the_sessions_of_a_missing_folder(
    app_factory: Any, demo_root: Path, tmp_path: Path
) -> None:
    new = tmp_path / "writing" / "blog-renamed"
    new.mkdir(parents=True)
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        picker = await started(pilot)
        await highlight_cwd(pilot, picker, "writing/blog")
        preview = picker.query_one(SessionPreview)
        said = plain(preview.query_one("#preview-body"), 100)
        assert "missing here (alt+m: move its sessions)" in said  # the key, not "Folder"
        await wait_for(pilot, lambda: "alt+m Folder" in shown(pilot))
        old_paths = [Path(r.summary.path) for r in picker.rows]
        assert len(old_paths) == 2

        await pilot.press("alt+m")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TextInputModal), "asked")
        field = pilot.app.screen.query_one("#text-input")
        assert field.value == BLOG and field.selection == (0, len(BLOG))  # typed over
        field.post_message(events.Paste(str(tmp_path / "writing" / "blog-re")))  # pasted
        await wait_for(pilot, lambda: field._suggestion == str(new), "the folder completed")
        await pilot.press("right", "enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal), "the question")
        assert pilot.app.screen._title == "Move 2 sessions to the new folder?"
        assert all(p.exists() for p in old_paths)  # nothing moved before the answer
        await pilot.press("enter")
        await toast_saying(pilot, "Moving 2 sessions to")  # at once: a big move takes seconds

        await wait_for(pilot, lambda: not any(p.exists() for p in old_paths), "moved")
        moved = [discovery.project_dir(demo_root, str(new)) / p.name for p in old_paths]
        assert all(header_cwd(p) == str(new) for p in moved)
        await pilot.press("ctrl+u", *"cwd:blog-renamed")
        await wait_for(
            pilot, lambda: {r.summary.path for r in picker.rows} == set(map(str, moved)), "listed"
        )
        await wait_for(pilot, lambda: not preview.reading)
        assert "missing" not in plain(preview.query_one("#preview-body"), 100)


async def test_no_move_offered_for_a_folder_that_exists(
    app_factory: Any, demo_root: Path, tmp_path: Path
) -> None:
    path = next(p for p in demo_root.rglob("*.jsonl") if header_cwd(p) == BLOG)
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["cwd"] = str(tmp_path)
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = await started(pilot)
        await highlight_cwd(pilot, picker, tmp_path.name)
        assert "missing" not in plain(picker.query_one(SessionPreview).query_one("#preview-body"))
        assert "alt+m Folder" not in shown(pilot)
        await pilot.press("alt+m")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, TextInputModal)


async def test_the_help_lists_move_folder(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        rows = [text for _, keys in pilot.app.screen._groups() for _, text in keys]
        assert any("folder is gone: move its folder's sessions" in text for text in rows)


def test_folders_complete_the_last_part_typed(tmp_path: Path) -> None:
    (tmp_path / "project-b").mkdir()
    (tmp_path / "project-a").mkdir()
    (tmp_path / "project-c.txt").write_text("")
    (tmp_path / ".project-hidden").mkdir()
    assert complete_folder(f"{tmp_path}/proj") == f"{tmp_path}/project-a"
    assert complete_folder(f"{tmp_path}/project-a") is None
    assert complete_folder(f"{tmp_path}/project-c") is None  # a file
    assert complete_folder(f"{tmp_path}/.proj") == f"{tmp_path}/.project-hidden"
    assert complete_folder(f"{tmp_path}/nothing") is None
