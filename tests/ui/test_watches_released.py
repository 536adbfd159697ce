"""Widgets removed are let go of by what they watched (textualize/textual#6666): the footer's
keys, rebuilt with every change of the bindings, and the code parts watching the app's theme.
Kept, every rebuild of the picker's footer while a session was being written grew memory."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from rich.text import Text
from textual.app import App
from textual.widgets import Static
from ui_helpers import settle, started
from waiting import wait_for

from pitui.ui.watches import watch_count
from pitui.ui.widgets.fitting_footer import FittingFooter
from pitui.ui.widgets.message_parts import ThemedCode

REBUILDS = 20


async def test_rebuilding_the_footer_lets_go_of_its_old_keys(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        footer = picker.query_one(FittingFooter)
        keys = len(footer.query("FooterKey"))
        watching = watch_count(footer)  # a key each, the command palette's aside
        assert keys and watching >= keys - 1
        old = [weakref.ref(key) for key in footer.query("FooterKey")]
        for _ in range(5):
            shown = next(iter(footer.query("FooterKey")))
            picker.refresh_bindings()  # what the picker did on every change of the preview
            await wait_for(
                pilot, lambda shown=shown: _rebuilt(footer, shown, keys), "the footer rebuilt"
            )
        await settle(pilot)
        assert len(footer.query("FooterKey")) == keys
        assert watch_count(footer) == watching
        gc.collect()
        assert not [ref for ref in old if ref() is not None]


def _rebuilt(footer: FittingFooter, shown: object, keys: int) -> bool:
    now = list(footer.query("FooterKey"))
    return len(now) == keys and now[0] is not shown


class _Parts(App[None]):
    pass


async def test_a_code_part_removed_no_longer_watches_the_theme() -> None:
    app = _Parts()
    async with app.run_test() as pilot:
        before = watch_count(app)
        removed = []
        for _ in range(REBUILDS):
            part = ThemedCode(lambda theme: Text(f"code in {theme}"), classes="part")
            await app.screen.mount(part)
            assert watch_count(app) == before + 1  # it follows the theme while shown
            removed.append(weakref.ref(part))
            await part.remove()
            del part
        await app.screen.mount(Static("shown after"))  # the screen's caches move on
        await pilot.pause()
        assert watch_count(app) == before
        gc.collect()
        assert not [ref for ref in removed if ref() is not None]
