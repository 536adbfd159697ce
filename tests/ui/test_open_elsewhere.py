"""Issue 36: the session screen's header says "open in pi (pid N)" while another process
holds the file open (Linux /proc), as the picker's preview does; and a write from the app to
such a file (a name, a label, a context edit, the trash) asks first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holder import holding
from ui_helpers import loaded, plain, started
from waiting import wait_for

from pitui.core.changes.writer import set_name
from pitui.core.session.session import Session
from pitui.ui.modals.confirm import ConfirmModal
from pitui.ui.screens.session_header import SessionHeader
from pitui.ui.writes import WriteJob


async def test_the_session_header_says_who_holds_the_file_open(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        path = Path(picker.highlighted.path)
        with holding(path) as process:
            await pilot.press("enter")
            screen = await loaded(pilot)
            header = screen.query_one(SessionHeader)
            shown = f"open in pi (pid {process.pid})"
            await wait_for(pilot, lambda: shown in plain(header, 160), "the holder said", 10)
        await wait_for(pilot, lambda: "open in" not in plain(header, 160), "the holder gone", 10)


async def test_the_header_says_nothing_of_a_reader(app_factory: Any) -> None:
    """A reader (`less`, another pitui) cannot write to the session: the yellow "open in"
    warned of it as if it were a pi at work."""
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        path = Path(picker.highlighted.path)
        with holding(path, mode="rb", name="less"), holding(path, name="pi") as writer:
            await pilot.press("enter")
            screen = await loaded(pilot)
            header = screen.query_one(SessionHeader)
            shown = f"open in pi (pid {writer.pid})"
            await wait_for(pilot, lambda: shown in plain(header, 160), "the writer said", 10)
            assert "less" not in plain(header, 160)


async def test_a_write_to_a_file_held_open_asks_first(app_factory: Any) -> None:
    async with app_factory().run_test(size=(120, 30)) as pilot:
        picker = await started(pilot)
        path = Path(picker.highlighted.path)
        written: list[object] = []
        write = lambda force: set_name(path, "held", force=force)  # noqa: E731
        with holding(path, mode="rb"):  # a reader (another pitui showing it): no question
            pilot.app.run_write(WriteJob("rename", path, write, done=written.append))
            await wait_for(pilot, lambda: written, "the write")
            assert not isinstance(pilot.app.screen, ConfirmModal)
        assert Session(path).tree.name == "held"
        written.clear()
        write = lambda force: set_name(path, "held again", force=force)  # noqa: E731
        with holding(path, mode="ab") as process:  # a writer: asked first
            pilot.app.run_write(WriteJob("rename", path, write, done=written.append))
            await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmModal), "asked")
            modal = pilot.app.screen
            assert f"is open in pi (pid {process.pid})" in str(modal._message)
            assert Session(path).tree.name == "held"  # nothing written before the answer
            await pilot.press("enter")
            await wait_for(pilot, lambda: written, "the write once confirmed")
        assert Session(path).tree.name == "held again"


async def test_a_pin_is_not_a_write_to_the_session(app_factory: Any) -> None:
    async with app_factory().run_test(size=(120, 30)) as pilot:
        picker = await started(pilot)
        path = Path(picker.highlighted.path)
        done: list[object] = []
        with holding(path):
            pilot.app.run_write(WriteJob("pin", path, lambda force: "pinned", done=done.append))
            await wait_for(pilot, lambda: done == ["pinned"], "the pin, not asked")
        assert not isinstance(pilot.app.screen, ConfirmModal)
