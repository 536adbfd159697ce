"""Pilot tests of exporting from the app: Alt+E in the session screen and in the picker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_session_screen import loaded, session_path
from ui_helpers import settle, toast_saying, toasts
from waiting import wait_for

from pitui.core.export import html_pages
from pitui.core.session.session import Session
from pitui.ui.modals.dialog_body import PathLine
from pitui.ui.modals.export import ExportModal
from pitui.ui.screens.picker import PickerScreen

SIZE = (100, 30)


async def test_session_screen_exports_the_highlighted_branch(
    app_factory: Any, demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    path = session_path(demo_root, "Fix rounding bug in checkout totals")
    before = path.read_bytes()
    async with app_factory(sessions_root=None, session_file=path).run_test(
        size=SIZE, notifications=True
    ) as pilot:
        screen = await loaded(pilot)
        await pilot.press("home", "down", "down", "down")  # an entry early on the branch
        await settle(pilot)
        leaf = screen.entry.id
        await pilot.press("alt+e")
        modal = pilot.app.screen
        assert isinstance(modal, ExportModal)
        field = modal.query_one("#export-path")
        name = Session(path).tree.name
        assert name and field.value == str(
            out / (name.replace(": ", "-").replace(" ", "-") + ".md")
        )
        await pilot.click("#format-html")
        await settle(pilot)
        assert field.value.endswith(".html")
        assert modal.query_one("#export-redact").value is True  # on by default for HTML
        await pilot.click("#export-go")
        await wait_for(pilot, lambda: any(out.iterdir()))
        await settle(pilot)
        notes = toasts(pilot.app)
    (written,) = out.iterdir()
    page = written.read_text()
    assert page.startswith("<!DOCTYPE html>") and f"<code>{leaf}</code>" in page
    assert any(f"Exported to {written}" in note and "no secret found" in note for note in notes)
    session = Session(path)
    later = session.tree.path_to(session.tree.leaf.id)[-1].id
    assert later != leaf and f"<code>{later}</code>" not in page  # only the highlighted branch
    assert path.read_bytes() == before


async def test_a_large_html_export_is_an_index_and_its_parts(
    app_factory: Any, demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(html_pages, "PART_CHARS", 500)  # a few entries a part
    monkeypatch.chdir(tmp_path)
    path = session_path(demo_root, "Fix rounding bug in checkout totals")
    async with app_factory(sessions_root=None, session_file=path).run_test(
        size=SIZE, notifications=True
    ) as pilot:
        await loaded(pilot)
        await pilot.press("alt+e")
        modal = pilot.app.screen
        assert isinstance(modal, ExportModal)
        await pilot.click("#format-html")
        await settle(pilot)
        index = Path(modal.query_one("#export-path").value)
        await pilot.click("#export-go")
        await wait_for(pilot, index.exists)
        await settle(pilot)
        notes = toasts(pilot.app)
    parts = sorted(index.with_name(index.stem + "-parts").iterdir())
    assert len(parts) > 1 and all(
        f'href="{index.stem}-parts/{p.name}"' in index.read_text() for p in parts
    )
    assert any(f"Exported to {index} and {len(parts)} parts beside it" in n for n in notes)


async def test_picker_exports_context_and_refuses_an_existing_file(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        await pilot.press("alt+e")
        modal = pilot.app.screen
        assert isinstance(modal, ExportModal)
        field = modal.query_one("#export-path")
        await pilot.click("#export-context")
        await settle(pilot)
        assert field.value.endswith("-context.md")
        target = Path(field.value)
        target.write_text("mine")
        field.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is modal and "exists" in str(
            modal.query_one("#export-error").render()
        )
        field.value = str(out / "context.md")
        await pilot.press("enter")
        await wait_for(pilot, lambda: (out / "context.md").exists())
        await settle(pilot)
    assert target.read_text() == "mine"
    assert (out / "context.md").read_text().startswith("# Context: ")


async def test_escape_exports_nothing(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await pilot.press("alt+e", "escape")
        await settle(pilot)
        assert pilot.app.screen is picker
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".md"] == []


async def test_the_folder_written_into_shows_below_the_path_at_80_columns(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field shows its end: under a long folder, where the file goes was out of view."""
    here = tmp_path / ("a long folder name " * 4).strip() / "deeper"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    async with app_factory().run_test(size=(80, 24)) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await pilot.press("alt+e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.pause()
        folder = pilot.app.screen.query_one(PathLine)
        shown = str(folder.render())
        assert shown.startswith(f"in {str(here)[:8]}") and shown.endswith("/deeper"), shown
        field = pilot.app.screen.query_one("#export-path")
        field.value = "/srv/out/notes.md"
        await pilot.pause()
        assert str(folder.render()) == "in /srv/out"
        await pilot.press("escape")


async def test_copy_the_highlighted_entry_as_markdown(app_factory: Any, demo_root: Path) -> None:
    path = session_path(demo_root, "Fix rounding bug in checkout totals")
    async with app_factory(sessions_root=None, session_file=path).run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("home", "down", "down")
        await settle(pilot)
        entry = screen.entry
        await pilot.press("alt+y")
        copied = pilot.app.clipboard
    assert copied.startswith("### ") and f"`{entry.id}`" in copied
    message = entry.raw.get("message") or {}
    content = message.get("content")
    texts = (
        [content]
        if isinstance(content, str)
        else [b["text"] for b in content or [] if b.get("type") == "text"]
    )
    assert texts and all(text in copied for text in texts)


async def test_an_export_shows_its_progress_above_the_footer(
    app_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: a line says how far the export is while the worker runs, then goes."""
    import threading

    from textual.widgets import Footer

    import pitui.core.export.export as export_module
    from pitui.ui.widgets.export_progress import ExportProgress

    halfway, go_on = threading.Event(), threading.Event()
    real = export_module.export_session

    def paused(*args: Any) -> Any:
        result = real(*args)
        args[-1](40, 100)  # the worker's progress
        halfway.set()
        go_on.wait(10)
        return result

    monkeypatch.setattr(export_module, "export_session", paused)
    monkeypatch.chdir(tmp_path)
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        await pilot.press("alt+e")
        await pilot.click("#export-go")
        await wait_for(pilot, halfway.is_set)
        await wait_for(pilot, lambda: "40%" in str(picker.query_one(ExportProgress).render()))
        shown, footer = picker.query_one(ExportProgress).region, picker.query_one(Footer).region
        assert shown.height == 1 and shown.bottom == footer.y  # on screen, just above it
        go_on.set()
        await wait_for(pilot, lambda: not picker.query(ExportProgress))
        await settle(pilot)
        notes = toasts(pilot.app)
    assert any("Exported to" in note for note in notes)


async def test_the_dialog_proposes_a_free_name_and_a_failed_export_is_said(
    app_factory: Any, demo_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second export of a session proposed the first's name (then refused it, its reason
    cut at "NAME exists:"); an export that failed ("[Errno 20] Not a directory") was read as
    markup by the notification and ended the app with a traceback."""
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    path = session_path(demo_root, "Fix rounding bug in checkout totals")
    async with app_factory(sessions_root=None, session_file=path).run_test(
        size=(80, 24), notifications=True
    ) as pilot:
        await loaded(pilot)
        await pilot.press("alt+e")
        field = pilot.app.screen.query_one("#export-path")
        first = Path(field.value)
        first.write_text("an earlier export")
        await pilot.press("escape", "alt+e")
        field = pilot.app.screen.query_one("#export-path")
        assert Path(field.value) == first.with_name(f"{first.stem}-2.md")
        field.value = str(first / "inside-a-file.md")  # its folder is a file
        await pilot.press("enter")
        said = await toast_saying(pilot, "Export failed")
        assert "Not a directory" in said
        assert pilot.app.is_running
