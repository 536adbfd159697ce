"""The app's side of the kept first screen (`pitui.commands.first_frame`).

When the picker's first screen from the last launch is already on the terminal, the app draws
nothing until its own first screen is complete (the list, the preview, the scan and the
secrets pass done), then draws it whole in one frame: the same screen, or what changed since.
Keys and clicks meanwhile wait, and reach the app once its list is in: they act on the list
the user saw, never on a list still loading (so do keys pressed before the list of a launch
without a kept screen). A resize shows the app's screen at once;
after `HOLD_AT_MOST` seconds it is shown anyway. A launch that shows no kept screen keeps
its complete first screen for the next one, unless the user already acted on it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import RenderableType
from textual import events
from textual.app import App
from textual.drivers.linux_driver import LinuxDriver
from textual.screen import Screen

from pitui.ui.failures import ReportsFailures

HOLD_AT_MOST = 5.0  # seconds (a kept screen means nothing changed: the scan and passes are quick)
STILL_EVERY = 0.03  # seconds between two looks at the screen while it settles ...
STILL_TRIES = 20  # ... at most this many looks
ALTERNATE_SCREEN = "\x1b[?1049h"


def driver_after(kept: Any) -> type[LinuxDriver]:
    """Textual's Linux driver, taking over a terminal the kept screen is on."""

    class AfterKeptScreen(LinuxDriver):
        _enter_alternate = False

        def start_application_mode(self) -> None:
            self._enter_alternate = True
            super().start_application_mode()
            self._enter_alternate = False
            self.attrs_before = kept.tty_before  # restored on exit: the mode before pitui
            kept.handed_over = True

        def write(self, data: str) -> None:
            # Already on the alternate screen: entering it again clears it in some terminals.
            if self._enter_alternate and data == ALTERNATE_SCREEN:
                return
            super().write(data)

    return AfterKeptScreen


class KeepsFirstScreen(ReportsFailures, App[Any]):
    """Mixed into the app: holds its frames while a kept screen shows, keeps its first one."""

    _kept: Any = None
    _holding = False
    _undisturbed = True  # no key, click or resize yet: the first screen is the launch's own
    _list_in = False  # the picker's list is on the app's screen
    _input_held = False  # keys wait for the picker's list (on screen or not)
    _waiting_input: list[events.Event]

    def hold_for_kept_screen(self, kept: Any) -> None:
        self._kept = kept
        self._holding = kept is not None and kept.shown
        self._input_held = kept is not None
        self._waiting_input = []

    def on_ready(self) -> None:
        if self._input_held:
            self.set_timer(HOLD_AT_MOST, self._show_own_screen)

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        # Textual's one place where a frame is written to the terminal.
        if not self._holding:
            super()._display(screen, renderable)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent | events.Paste):
            self._undisturbed = False
            if self._input_held:
                self._waiting_input.append(event)
                if self._list_in:
                    self._show_own_screen()  # and the keys, this one last
                return
        elif self._resized(event):
            self._undisturbed = False
            self._show_own_screen()
        await super().on_event(event)

    def _resized(self, event: events.Event) -> bool:
        kept = self._kept
        return isinstance(event, events.Resize) and kept is not None and event.size != kept.size

    def first_screen_drawn(self, good_until: float) -> None:
        """The picker's first screen is complete: once the screen stops changing (a preview's
        scroll bar comes a layout later), show it, and keep it if none was shown."""
        kept = self._kept
        if kept is None or not (self._holding or (self._undisturbed and not kept.shown)):
            return  # nothing to show whole, nothing to keep: no need to watch the screen
        self._when_still(good_until, None, STILL_TRIES)

    def _when_still(self, good_until: float, last: str | None, tries: int) -> None:
        if not self.is_running or not self.screen_stack:
            return  # quitting
        screen = self.whole_screen()
        if screen != last and tries > 0:
            retry = partial(self._when_still, good_until, screen, tries - 1)
            self.set_timer(STILL_EVERY, retry)
            return
        self._show_own_screen()
        kept = self._kept
        if kept.shown or screen != last or self._notifications:
            return
        if not self._undisturbed or tuple(self.size) != kept.size:
            return
        self.run_worker(
            partial(kept.keep, screen, good_until),
            thread=True,
            group="kept-screen",
            exit_on_error=False,
            description="keeping the first screen",
        )

    def first_list_shown(self) -> None:
        """The picker's list is in: keys pressed meanwhile act on it now, without waiting for
        the rest of the screen (their answer changes the screen anyway)."""
        self._list_in = True
        if self._waiting_input:
            self._show_own_screen()

    def whole_screen(self) -> str:
        """The screen as one frame, as Textual writes it (what is pending stays pending)."""
        compositor = self.screen._compositor
        pending = set(compositor._dirty_regions)
        update = compositor.render_full_update()
        compositor._dirty_regions.update(pending)
        return update.render_segments(self.console)

    def _show_own_screen(self) -> None:
        """The app's screen, drawn whole if a kept one was showing; the keys that waited."""
        if self._holding:
            self._holding = False
            screen = self.screen
            super()._display(screen, screen._compositor.render_full_update())
        if self._input_held:
            self._input_held = False
            waiting, self._waiting_input = self._waiting_input, []
            for event in waiting:
                self.post_message(event)
