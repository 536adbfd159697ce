"""Keys typed while pitui starts reach the app as typed.

Until Textual's driver takes the terminal (about half a second after launch), the terminal is
in its line mode: it would echo what is typed and turn Enter into a newline (Ctrl+J for the
app). `keys_as_typed()` sets the mode Textual sets as soon as the command starts, and gives
the terminal back as it was when pitui ends (Textual gives back the mode it found: this one).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

from pitui.core.rows.safe_text import one_line


@contextlib.contextmanager
def keys_as_typed() -> Iterator[None]:
    try:
        import termios  # deferred: absent off POSIX
    except ImportError:  # not POSIX
        yield
        return
    if sys.__stdin__ is None:  # no standard input at all
        yield
        return
    try:
        fd = sys.__stdin__.fileno()
        before = termios.tcgetattr(fd)
    except (AttributeError, ValueError, OSError, termios.error):  # no terminal
        yield
        return
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    mode[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR | termios.IGNCR)
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    with contextlib.suppress(termios.error, OSError):
        termios.tcsetattr(fd, termios.TCSANOW, mode)  # not TCSAFLUSH: keep what was typed
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, before)


ALTERNATE_SCREEN, MAIN_SCREEN = "\x1b[?1049h\x1b[H\x1b[2J", "\x1b[?1049l"


@contextlib.contextmanager
def opening_splash(path: str) -> Iterator[None]:
    """Until Textual's driver takes the terminal (its imports take 0.3-0.5 s), the screen it
    will draw on names the file being opened; left again if pitui fails before that. Only on
    a terminal."""
    if not sys.stdout.isatty():
        yield
        return

    try:
        size = f" ({os.stat(path).st_size / 1e6:,.0f} MB)"
    except OSError:
        size = ""
    sys.stdout.write(f"{ALTERNATE_SCREEN}pitui · opening {one_line(os.path.basename(path))}{size}…")
    sys.stdout.flush()
    try:
        yield
    except BaseException:
        sys.stdout.write(MAIN_SCREEN)
        sys.stdout.flush()
        raise
