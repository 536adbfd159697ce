"""When the picker's first screen is complete: the list answered from an index the start-up
scan found up to date (or brought up to date), the secrets pass done (its marks are in the
list), the highlighted session's preview read. The app is told then (`first_screen_drawn`):
it shows that screen in one frame and may keep it for the next launch."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from pitui.ui.widgets.session_preview import SessionPreview
from pitui.ui.widgets.session_table import SessionTable

WAITS = ("scan", "secrets", "answer")
_ENDED = (WorkerState.SUCCESS, WorkerState.ERROR)


class PickerFirstScreen(Screen[None]):
    """Mixed into `PickerScreen`, which says when each of `WAITS` starts and ends."""

    rows: list[Any]
    _first_waits: set[str] | None = None  # None: complete, and the app was told

    def first_screen_starts(self) -> None:
        self._first_waits = set(WAITS)

    def first_screen_waits(self, what: str) -> None:
        if self._first_waits is not None:
            self._first_waits.add(what)

    def first_screen_has(self, *done: str) -> None:
        if self._first_waits is None:
            return
        self._first_waits.difference_update(done)
        if self._list_in():  # keys already pressed need not wait for the rest
            listed: Any = getattr(self.app, "first_list_shown", None)
            if listed is not None:
                listed()
        if not self._first_waits and not self.query_one(SessionPreview).loading:
            self._first_waits = None
            self.call_after_refresh(self._first_screen_complete)

    def _list_in(self) -> bool:
        """The list answers the question on screen, from an index that has sessions or that
        the start-up scan has brought up to date (not an index still being built)."""
        waits = self._first_waits or set()
        return "answer" not in waits and (bool(self.rows) or "scan" not in waits)

    def first_screen_worker(self, event: Worker.StateChanged) -> None:
        if event.state in _ENDED and event.worker.group == "secrets":
            self.first_screen_has("secrets")
        elif event.state == WorkerState.ERROR and event.worker.group == "scan":
            self.first_screen_has("scan", "secrets")  # no secrets pass follows a failed scan

    def on_session_preview_loaded(self, _: SessionPreview.Loaded) -> None:
        self.first_screen_has()

    def _first_screen_complete(self) -> None:
        told: Any = getattr(self.app, "first_screen_drawn", None)
        if told is not None:
            told(self.query_one(SessionTable).ages_good_until())
