"""`PituiAppBase`: the app as its screens and actions see it (its config, the hub, the
writes and handoffs, the settings kept), typed; `PituiApp` (`ui/app.py`) adds the screens.

Screens take `app = getters.app(PituiAppBase)`, and the actions an `app: PituiAppBase`:
this module imports no screen, so none of them imports the module that opens them."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TypedDict, Unpack

from rich.text import Text
from textual.app import App
from textual.worker import Worker

from pitui.core.catalog.catalog import Catalog
from pitui.core.live.hub import SessionHub
from pitui.core.live.live import LiveStore
from pitui.core.rows.safe_text import inert_path
from pitui.ui.app_config import AppConfig
from pitui.ui.failures import ReportsFailures, notify_failure
from pitui.ui.handoff import Handoff, HandoffFlow
from pitui.ui.key_gate import KeyGate
from pitui.ui.settings import save_settings
from pitui.ui.themes import ANSI_DARK, ANSI_LIGHT, PITUI_THEMES
from pitui.ui.toasts import KeepsErrorToasts
from pitui.ui.user_activity import UserActivity
from pitui.ui.worker_messages import SessionRemoved
from pitui.ui.writes import WriteFlow


class ListsSessions:
    """A screen listing sessions (the picker): told when pitui itself changed some."""

    def refresh_paths(self, paths: list[Path], note: str | None = None) -> None:
        raise NotImplementedError

    def forget(self, path: Path) -> None:
        raise NotImplementedError


class Remembered(TypedDict, total=False):
    """The settings the app changes as the user works (`PituiAppBase.remember`)."""

    theme: str
    tree_share: int
    hidden_panes: list[str]


class ShowsSession:
    """A screen showing one session (the session screen): closed when it is trashed."""

    path: Path  # the session's file
    standalone: bool  # the app's only session screen (`pitui FILE`): no picker under it


class PituiAppBase(ReportsFailures, HandoffFlow, WriteFlow, KeepsErrorToasts, App[Handoff | None]):
    """The app's state and the services its screens call; the single worker-failure handler."""

    def __init__(self, config: AppConfig, hub: SessionHub) -> None:
        super().__init__()
        self.config = config
        self.hub = hub
        for theme in PITUI_THEMES:
            self.register_theme(theme)
        # Without their watchers (each would restyle every widget once more at start): the
        # theme's watcher, below, applies the ANSI theme of the chosen theme.
        self.set_reactive(App.ansi_theme_dark, ANSI_DARK)
        self.set_reactive(App.ansi_theme_light, ANSI_LIGHT)
        self.theme = config.settings.theme
        self._preloading = False
        self.activity = UserActivity()  # background passes wait while the user does
        self.key_gate = KeyGate(self)  # each key handed on once the last one had its effect

    @property
    def catalog(self) -> Catalog | None:
        return self.hub.catalog

    @property
    def live(self) -> LiveStore:
        return self.hub.live

    def now(self) -> datetime:
        return self.config.now() if self.config.now else datetime.now(UTC)

    def preload_session_screen(self) -> None:
        """Import the session screen's modules (about 0.1 s, Markdown) and the format's pydantic
        models (about 0.1 s, first used when a message is shown) in a thread, once the picker
        shows its list, so Enter on a session waits for neither."""
        if self._preloading:
            return
        self._preloading = True
        self.run_worker(
            partial(_import_all, ("pitui.ui.screens.session", "pitui.core.format.models")),
            thread=True,
            group="preload",
            exit_on_error=False,
            description="loading the session screen",
        )

    def session_lists(self) -> list[ListsSessions]:
        """The screens listing sessions (the picker, under the session screen or not)."""
        return [screen for screen in self.screen_stack if isinstance(screen, ListsSessions)]

    def session_written(self, path: Path) -> None:
        """A session screen wrote to `path`: the picker underneath re-reads it."""
        for listing in self.session_lists():
            listing.refresh_paths([path])

    def on_session_removed(self, message: SessionRemoved) -> None:
        """Trashed: back to the picker, as Pi after Ctrl+D: the screens showing the session are
        closed, with whatever was opened over them meanwhile (help, a dialog); the picker
        forgets it."""
        self.notify("Moved to the trash")
        stack = self.screen_stack
        showing = [
            (i, s)
            for i, s in enumerate(stack)
            if isinstance(s, ShowsSession) and s.path == message.path
        ]
        if any(screen.standalone for _, screen in showing):  # said once the screen is gone
            path = inert_path(str(message.path))
            said = f"Moved {path} to the trash; `pitui restore {path}` brings it back"
            self.exit(message=Text(said, no_wrap=False))
            return
        if showing and showing[0][0] > 0:
            stack[showing[0][0] - 1].pop_until_active()
        for listing in self.session_lists():
            listing.forget(message.path)

    def remember(self, **changes: Unpack[Remembered]) -> None:
        """Change the settings kept between runs, and write them from a thread worker."""
        settings = replace(self.config.settings, **changes)
        self.config.settings = settings
        self.run_worker(
            partial(save_settings, settings),
            thread=True,
            group="settings",
            exit_on_error=False,
            description="saving the settings",
        )

    def report_worker_failure(self, worker: Worker[object]) -> None:
        """The one place worker failures surface: a notification, never a traceback."""
        notify_failure(self, worker)


def _import_all(modules: Iterable[str]) -> None:
    for module in modules:
        importlib.import_module(module)
