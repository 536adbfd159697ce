"""Ending the app when its terminal is gone.

Closing a terminal window hangs up the terminal, and the kernel's SIGHUP ends pitui. A
program that is not in the terminal's session gets no SIGHUP: Textual's input thread then
reads end-of-file in a loop (a core at a third, for ever). Polling the input once a second
for a hang-up ends the app instead.
"""

from __future__ import annotations

import select
import sys

EVERY = 1.0  # seconds
_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def terminal_gone() -> bool:
    """The app's input (standard input, a terminal) was hung up or closed."""
    poller = select.poll()
    try:
        if sys.__stdin__ is None:
            return True  # no standard input at all
        poller.register(sys.__stdin__.fileno(), select.POLLIN)
        return any(events & _GONE for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return True  # no standard input at all
