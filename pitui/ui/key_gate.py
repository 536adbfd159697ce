"""Keys handled one at a time, each once the last one has had its effect, as Pi handles them.

Textual gives a key to the focused widget's queue and takes the next one at once; the key then
bubbles up, widget by widget, to the bindings, in later turns of the loop. So a key typed right
after another went where the first one was about to change things: Enter then Ctrl+D in the
picker opened the session, but the Ctrl+D was already the picker's, which asked to trash the
session (in Pi's /tree, Ctrl+D is a filter); text typed after Ctrl+U in a dialog was typed
before the binding ran, and deleted with what it meant to replace; letters after Enter searched
the picker, not the tree.

Here, after each key, the next ones wait until the messages it started have been handled:
rounds of callbacks on the app and every widget of the screen (as Textual's own test pilot
waits), at least as many as the widgets the key bubbles through, and more while the screen or
its focus changes, until a screen it opened has its focus. A screen may also hold the keys
while an action waits for something (`hold`: Enter before a search's answer). Ctrl+Q still
quits at once, and a wait never lasts more than `WAIT_AT_MOST`.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App

EXTRA_ROUNDS = 3  # after the bubbling: the messages a handler posted (Input.Submitted...)
MAX_ROUNDS = 60
WAIT_AT_MOST = 3.0  # seconds a key waits for the last one, or for a hold


class KeyGate:
    """Which key the app hands on now, and the keys waiting for their turn."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._waiting: deque[events.Key] = deque()
        self._released: events.Key | None = None  # handed back to the app: its turn
        self._settling = False
        self._holds = 0
        self._held_since = 0.0
        self._task: asyncio.Task[None] | None = None

    def must_wait(self, key: events.Key) -> bool:
        """Whether `key` waits for its turn (then `wait` it)."""
        if key is self._released:
            self._released = None
            return False
        # a key released but not yet handled (in the app's queue) goes first: one from the
        # terminal meanwhile overtook it ("gzn" typed in the tree searched "zgn")
        return self._busy() or bool(self._waiting) or self._released is not None

    def wait(self, key: events.Key) -> None:
        self._waiting.append(key)
        if self._holds > 0 and not self._settling:  # held by an action: until it runs out
            left = self._held_since + WAIT_AT_MOST - time.monotonic()
            self._app.set_timer(max(0.01, left), self._next)

    def handed_on(self, target_depth: int | None) -> None:
        """A key was given to a widget `target_depth` levels deep: the next ones wait until
        what it started is done (None: nothing to wait for, the next one's turn)."""
        if target_depth is None:
            self._next()
            return
        self._settling = True
        self._task = asyncio.get_running_loop().create_task(self._settle(target_depth))

    def hold(self) -> Callable[[], None]:
        """Keys wait (at most `WAIT_AT_MOST`) until the function returned is called."""
        self._holds += 1
        self._held_since = time.monotonic()
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._holds -= 1
                if not self._settling:  # what the held action started (a screen) first
                    self.handed_on(0)

        return release

    def _busy(self) -> bool:
        held = self._holds > 0 and time.monotonic() - self._held_since < WAIT_AT_MOST
        return self._settling or held

    async def _settle(self, depth: int) -> None:
        app = self._app
        deadline = time.monotonic() + WAIT_AT_MOST
        try:
            for rounds in range(MAX_ROUNDS):
                before = (app.screen_stack[-1] if app.screen_stack else None, app.focused)
                await asyncio.wait_for(self._round(), max(0.01, deadline - time.monotonic()))
                after = (app.screen_stack[-1] if app.screen_stack else None, app.focused)
                if rounds >= depth + EXTRA_ROUNDS and before == after and self._focus_ready():
                    break
        except TimeoutError:
            pass  # something takes long: the keys go on rather than wait for ever
        finally:
            self._settling = False
            self._next()

    def _focus_ready(self) -> bool:
        """The screen shown has its focus, unless nothing on it takes one."""
        stack = self._app.screen_stack
        return not stack or stack[-1].focused is not None or not stack[-1].focus_chain

    async def _round(self) -> None:
        """Every message queued now on the app and the screen's widgets handled."""
        app = self._app
        pumps = [
            app,
            *(app.screen_stack[-1].walk_children(with_self=True) if app.screen_stack else []),
        ]
        done = asyncio.Event()
        left = 0

        def one() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                done.set()

        for pump in pumps:
            if pump.call_later(one):
                left += 1
        if left:
            await done.wait()

    def _next(self) -> None:
        """The first waiting key's turn, if the gate is open."""
        if self._waiting and not self._busy() and self._released is None:
            self._released = self._waiting.popleft()
            self._app.post_message(self._released)
