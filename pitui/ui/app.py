"""The pitui Textual app, and `make_app`, the factory shared by the CLI and the tests."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Input, Static

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.scan.discovery import Mirror
from pitui.core.live.hub import SessionHub
from pitui.core.live.live import LiveStore
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.userdata.moves import with_earlier_paths
from pitui.ui.app_base import PituiAppBase
from pitui.ui.app_config import AppConfig
from pitui.ui.executor import DaemonExecutor
from pitui.ui.failures import thread_worker
from pitui.ui.keymap import DIALOG_CANCELS, UNBOUND, load_pi_keymap
from pitui.ui.modals.dialog import Dialog
from pitui.ui.screens.help import HelpScreen
from pitui.ui.screenshot import save_screenshot, screenshot_folders
from pitui.ui.settings import load_settings
from pitui.ui.terminal_gone import EVERY, terminal_gone
from pitui.ui.themes import DARK, LIGHT

__all__ = ["AppConfig", "PituiApp", "make_app"]


def opening_text(path: Path) -> Text:
    """ "pitui · opening NAME (105 MB)…": the first frame while pitui starts on a file."""
    try:
        size = f" ({path.stat().st_size / 1e6:,.0f} MB)"
    except OSError:
        size = ""
    return Text(f"pitui · opening {inert_path(path.name)}{size}…")


def stylesheet_path() -> Path:
    """`pitui.tcss`: shipped in the wheel inside the package, at the repo root in a checkout."""
    package_dir = Path(__file__).resolve().parent.parent
    shipped = package_dir / "pitui.tcss"
    return shipped if shipped.exists() else package_dir.parent / "pitui.tcss"


class PituiApp(PituiAppBase):
    """Picker first (or one session directly); global keys."""

    TITLE = "pitui"
    CSS_PATH = stylesheet_path()
    COMMAND_PALETTE_BINDING = "ctrl+k"
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: over a dialog or the help too (a modal screen hides the app's others)
        Binding("f1", "help", "Help", id="app.help", tooltip="Every key", priority=True),
        Binding(
            "f2",
            "toggle_theme",
            "Theme",
            id="app.theme",
            tooltip="Dark / light theme",
            show=False,
            priority=True,
        ),
        Binding(
            "ctrl+q", "quit", "Quit", id="app.quit", tooltip="Quit pitui", priority=True, show=False
        ),
        # Textual's screens bind Ctrl+C to copy the selected text, which with none selected
        # did nothing: a user pressing it to quit is told how
        Binding("ctrl+c", "copy_or_say_how_to_quit", show=False, priority=True, system=True),
    ]

    def on_load(self) -> None:
        # Thread workers in daemon threads: quitting never waits on a stuck read.
        asyncio.get_running_loop().set_default_executor(DaemonExecutor())

    async def on_mount(self) -> None:
        if not self.is_headless:
            self.set_interval(EVERY, self._exit_if_terminal_gone)
            loop = asyncio.get_running_loop()
            for ending in (signal.SIGTERM, signal.SIGHUP):  # a window closed, a kill
                loop.add_signal_handler(ending, self.exit)  # as Ctrl+Q: the demo's folder goes
        if self.config.keymap:
            self.set_keymap(self.config.keymap)
        if self.config.keymap_notices:
            self.notify(
                "\n".join(self.config.keymap_notices),
                title="keybindings.json: entries ignored",
                severity="warning",
                markup=False,
                timeout=10,
            )
        if self.config.session_file is not None and not self.is_headless:
            # a frame naming the file first: importing and building the session screen takes
            # 0.2-0.3 s more; the keys typed meanwhile wait for it, in order (headless, as in
            # tests, no frame is seen: the screen is there at once)
            release = self.key_gate.hold()
            await self.screen.mount(Static(opening_text(self.config.session_file)))
            self.call_after_refresh(self._open_session_screen, self.config.session_file, release)
            return
        if self.config.session_file is not None:
            # deferred: the session screen, ~0.1 s off the picker's first frame
            from pitui.ui.screens.session import SessionScreen

            first: Screen[None] = SessionScreen(self.config.session_file, standalone=True)
        else:
            # deferred: the picker, ~0.1 s off a session's first frame
            from pitui.ui.screens.picker import PickerScreen

            first = PickerScreen()
        # Awaited: keys typed from launch on are handled only once the first screen has its
        # focus, so none is lost and each reaches the widget the screen shows it in, in order.
        await self.push_screen(first)

    async def _open_session_screen(self, path: Path, release: Callable[[], None]) -> None:
        # deferred: the session screen, ~0.1 s off the picker's first frame
        from pitui.ui.screens.session import SessionScreen

        await self.push_screen(SessionScreen(path, standalone=True))
        release()  # the keys typed meanwhile, as typed, now that the screen has its focus

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, USER_INPUT):
            self.activity.noted()
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self._on_typed(event)
            return
        await super().on_event(event)

    async def _on_typed(self, key: events.Key) -> None:
        """A key from the terminal: handed on in its turn (`KeyGate`); Ctrl+Q quits at once
        (the other priority keys, Ctrl+C, F1 and F2, wait their turn as any key)."""
        if self.key_gate.must_wait(key):
            if key.key != "ctrl+q" or not await self._check_bindings(key.key, priority=True):
                self.key_gate.wait(key)
            return
        target = self.focused or self.screen
        bound = any(name in self.screen.active_bindings for name in key.aliases)
        typed = key.is_printable and not bound and isinstance(target, Input)
        await super().on_event(key)
        if typed:  # a letter typed into a text box changes nothing else: no wait
            self.key_gate.handed_on(None)
        else:
            self.key_gate.handed_on(len(target.ancestors_with_self))

    def on_unmount(self) -> None:
        self.hub.close()

    def _exit_if_terminal_gone(self) -> None:
        if terminal_gone():
            self.exit()

    def action_help(self) -> None:
        """F1: the keys of the screen shown (a dialog's too), or, over them, close them."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(HelpScreen(self.screen))

    def action_copy_or_say_how_to_quit(self) -> None:
        """Ctrl+C: copy the text selected (in a text box, or on the screen with the mouse);
        with none, cancel a dialog (as Pi), or say which key quits."""
        screen = self.screen
        focused = screen.focused
        if isinstance(focused, Input) and focused.selected_text:
            focused.action_copy()
            return
        if screen.get_selected_text():
            screen.action_copy_text()
            return
        if isinstance(screen, Dialog) and self._ctrl_c_cancels():  # as Pi's dialogs
            screen.action_cancel()
            return
        quit_keys = [k for k, a in screen.active_bindings.items() if a.binding.action == "quit"]
        key = "+".join(part.capitalize() for part in (quit_keys or ["ctrl+q"])[0].split("+"))
        self.notify(f"{key} quits pitui (Ctrl+C copies the text selected)", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No palette over a dialog: there Ctrl+K is Pi's editor key (delete to the end)."""
        if action == "command_palette" and isinstance(self.screen, Dialog):
            return False
        return super().check_action(action, parameters)

    def _ctrl_c_cancels(self) -> bool:
        """Ctrl+C is among Pi's cancel keys (`tui.select.cancel`: Esc and Ctrl+C unless the
        user's keybindings.json says otherwise)."""
        keys = self.config.keymap.get(DIALOG_CANCELS[0]) if self.config.keymap else None
        return keys is None or "ctrl+c" in keys.split(",")

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.theme == DARK else DARK
        self.remember(theme=self.theme)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette: each command of the current screen once, on one line with its key
        (no text-box editing keys), then the one Textual command pitui keeps: Screenshot."""
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            if not _is_command(active.node, binding) or not active.enabled:
                continue
            title = binding.tooltip or binding.description
            if binding.action in seen or title in seen:
                continue
            seen.update((binding.action, title))
            run = partial(self.run_action, binding.action, active.node)
            key = "" if binding.key == UNBOUND else f" ({self.get_key_display(binding)})"
            yield SystemCommand(f"{title}{key}", "", run)
        for command in super().get_system_commands(screen):
            if command.title in TEXTUAL_COMMANDS_KEPT:
                yield command

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """The palette's Screenshot: the screen as SVG (taken here), saved in a thread to the
        Downloads folder if there is one, else the current folder, else pitui's data folder;
        a notification says where."""
        when = datetime.now().strftime(time_format or "%Y-%m-%dT%H_%M_%S_%f")
        name = filename or f"{self.title}_{when}.svg"
        self._save_screenshot(self.export_screenshot(), name, path)
        return None

    @thread_worker("screenshot", "saving the screenshot")
    def _save_screenshot(self, svg: str, name: str, path: str | None) -> None:
        saved = save_screenshot(svg, name, screenshot_folders(path))
        self.call_from_thread(
            self.notify, f"Saved to {one_line(str(saved))}", title="Screenshot", markup=False
        )


USER_INPUT = (events.Key, events.MouseDown, events.MouseScrollDown, events.MouseScrollUp)
# Textual's Theme, Quit and Keys are done by pitui's own F2, Ctrl+Q and F1; its Maximize hid the
# picker's list behind the search box (pitui's session screen has its own Alt+Z, restored by Esc)
TEXTUAL_COMMANDS_KEPT = frozenset({"Screenshot"})


def _is_command(node: DOMNode, binding: Binding) -> bool:
    """A palette command: a binding with a tooltip (moving keys have none) that is not a
    text box's editing key."""
    # deferred: Textual's TextArea, ~8 ms off the first frame
    from textual.widgets import Input, TextArea

    return bool(binding.tooltip) and not isinstance(node, Input | TextArea)


def make_app(
    *,
    sessions_root: Path | str | None = None,
    session_file: Path | str | None = None,
    custom_dir: Path | str | None = None,
    archive_dir: Path | str | None = None,
    mirrors: Sequence[Mirror] = (),
    cwd: str | None = None,
    all_scope: bool = False,
    remotes_in_all: bool = True,
    watch: bool = True,
    cache_dir: Path | str | None = None,
    no_cache: bool = False,
    pi_command: str | None = None,
    now: datetime | Callable[[], datetime] | None = None,
    home: str | None = None,
    keybindings: Path | str | None = None,
) -> PituiApp:
    """Build the app with its catalog and live store: the settings, keybindings and index are
    opened here; no session is read until it runs."""
    clock = (lambda: now) if isinstance(now, datetime) else now
    file = Path(session_file).absolute() if session_file else None
    root = Path(sessions_root) if sessions_root else None
    config = AppConfig(
        sessions_root=root,
        session_file=file,
        custom_dir=Path(custom_dir) if custom_dir else None,
        cwd=cwd or os.getcwd(),
        all_scope=all_scope,
        remotes_in_all=remotes_in_all,
        watch=watch,
        pi_command=pi_command,
        now=clock,
        home=home,
    )
    config.settings = load_settings()  # small files, read before the app runs
    if keybindings is not None:
        config.keymap, config.keymap_notices = load_pi_keymap(Path(keybindings))
    catalog = None
    if root is not None:
        catalog = Catalog(
            root,
            custom_dir=config.custom_dir,
            cache_dir=Path(cache_dir) if cache_dir else None,
            no_cache=no_cache,
            archive_dir=Path(archive_dir) if archive_dir else None,
            mirrors=mirrors,
            earlier_paths=with_earlier_paths,  # file:PATH follows `pitui move`
        )
    roots = [p for p in (root, config.custom_dir, archive_dir) if p is not None]
    roots += [mirror.folder for mirror in mirrors if mirror.folder.is_dir()]
    if file is not None:
        roots = [file.parent]
    live = LiveStore(roots, watch=watch)
    return PituiApp(config, SessionHub(catalog, live))
