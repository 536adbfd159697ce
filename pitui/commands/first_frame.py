"""The picker's first screen, kept from the last launch and shown again before Textual loads.

Python and Textual take about half a second to start here, before pitui draws anything. When
nothing the picker's first screen was drawn from has changed since the last launch (every
session file and folder, the index, pins and tags, settings and key remaps, the terminal's
size and kind, pitui's and Textual's code: see `pitui.core.answers`), that screen is the
one the app is about to draw: it is written to the terminal at once, in the terminal mode the
app will use, so keys pressed meanwhile wait in the terminal for the app (none is echoed or
lost). The app draws nothing until its own first screen is complete, then draws it whole
over this one (`pitui.ui.first_screen`).

The relative ages in the list ("5m", "3h") change with the clock: a kept screen is good only
until the first of its ages would read otherwise. Anything unusual (no terminal, a custom
Textual driver, `--no-cache`) keeps and shows nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import time
from importlib.util import find_spec
from typing import Any

from pitui.commands.kept import every_folder_dependencies, marks_dependencies
from pitui.core.answers import Answers, Dependencies, key_of

COMMAND = "app-first-screen"
_TERMINAL_ENV = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE",
                 "TTY_INTERACTIVE", "COLUMNS", "LINES", "LANG", "LC_ALL", "LC_CTYPE")  # fmt: skip
ENTER = "\x1b[?1049h\x1b[?25l\x1b[?7l"  # alternate screen, no cursor, no wrap (as Textual)
LEAVE = "\x1b[?7h\x1b[?25h\x1b[?1049l"


class KeptScreen:
    """The picker's first screen for this launch: shown again if kept, else kept once drawn."""

    def __init__(self, answers: Answers, depends: Dependencies, size: tuple[int, int]) -> None:
        self.answers = answers
        self.depends = depends
        self.size = size
        self.shown = False  # the kept screen is on the terminal, waiting for the app
        self.handed_over = False  # the app's driver has taken the terminal
        self.tty_before: list[Any] | None = None  # the mode before pitui (the app restores it)

    def show(self) -> bool:
        """Write the kept screen if it is still good (True: shown)."""
        body = self.answers.get()
        if body is None:
            return False
        head, _, screen = body.partition("\n")
        with contextlib.suppress(ValueError):
            if time.time() < float(head) and self._enter_app_mode():
                self.shown = True
                try:
                    _write(ENTER + screen)
                except (OSError, UnicodeError):  # the app will draw its own
                    self.restore()
                    self.shown = False
        return self.shown

    def keep(self, screen: str, good_until: float) -> None:
        """Keep `screen` (the app's whole first screen) until `good_until` (epoch seconds)."""
        if good_until > time.time():
            self.answers.put(self.depends, f"{good_until!r}\n{screen}")

    def restore(self) -> None:
        """The app never took the terminal (it failed to start): give it back as it was."""
        if self.shown and not self.handed_over:
            _write(LEAVE)
            self._restore_mode()

    def _enter_app_mode(self) -> bool:
        """The terminal mode Textual sets (no echo, keys one by one, Ctrl+C a key)."""
        import termios

        fd = sys.__stdin__.fileno()
        try:
            self.tty_before = termios.tcgetattr(fd)
            mode = termios.tcgetattr(fd)
            mode[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
            mode[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR
                         | termios.IGNCR)  # fmt: skip
            mode[6][termios.VMIN] = 1
            termios.tcsetattr(fd, termios.TCSANOW, mode)
        except (termios.error, OSError):
            return False
        return True

    def _restore_mode(self) -> None:
        import termios

        if self.tty_before is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, self.tty_before)


def kept_screen(args: argparse.Namespace) -> KeptScreen | None:
    """The kept first screen of the picker for this launch (None: none is kept or shown)."""
    if args.no_cache or args.file or args.demo or not _plain_terminal():
        return None
    from pitui.core.user_dirs import cache_folder

    size = tuple(shutil.get_terminal_size())  # as Textual's driver measures it
    terminal = sorted((k, v) for k, v in os.environ.items()
                      if k in _TERMINAL_ENV or k.startswith("TEXTUAL"))  # fmt: skip
    options = {**vars(args), "size": size, "terminal": terminal}
    answers = Answers(cache_folder(), key_of(COMMAND, options, os.getcwd()))
    return KeptScreen(answers, _dependencies(args, cache_folder()), size)  # type: ignore[arg-type]


def _plain_terminal() -> bool:
    """Textual's own Linux driver on a terminal, as the app will run."""
    streams = (sys.__stdin__, sys.__stderr__)
    if os.name != "posix" or os.environ.get("TEXTUAL_DRIVER"):
        return False
    if os.environ.get("TERM", "dumb") in ("", "dumb"):
        return False
    return all(s is not None and s.isatty() for s in streams)


def _dependencies(args: argparse.Namespace, cache: str) -> Dependencies:
    """Everything the first screen is drawn from. Every session folder, whatever the scope:
    an empty folder's message depends on whether any session exists."""
    from pitui.core.catalog import discovery
    from pitui.core.catalog.index_schema import DB_NAME
    from pitui.core.user_dirs import config_dir

    depends = Dependencies()
    depends.file(str(discovery.agent_dir() / "settings.json"))
    every_folder_dependencies(depends, str(discovery.sessions_root()))
    custom = discovery.custom_session_dir(args.session_dir, os.getcwd())
    if custom is not None:
        depends.sessions(str(custom))
    marks_dependencies(depends)
    for suffix in ("", "-wal"):
        depends.file(os.path.join(cache, DB_NAME + suffix))
    depends.file(str(config_dir() / "settings.json"))
    depends.file(str(discovery.agent_dir() / "keybindings.json"))
    for package in ("textual", "rich"):  # another version may draw otherwise
        spec = find_spec(package)
        depends.file(str(spec.origin if spec is not None else package))
    return depends


def _write(text: str) -> None:
    stream = sys.__stderr__  # where Textual's driver writes
    stream.write(text)
    stream.flush()
