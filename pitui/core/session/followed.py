"""One session kept read for a view that shows it again on every change of its file (the
picker's preview of a session Pi is writing): the next use reads only what was appended, as
the session screen's live tail does (`Session.refresh`). A file truncated, replaced or edited
is read again whole; another path replaces the session kept."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session, SessionUpdate


class FollowedSession:
    """The last session used, by path. Thread-safe: a use holds the lock (the threads of
    views superseded by a newer one may still be reading)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: Session | None = None

    @contextmanager
    def use(self, path: str | os.PathLike[str]) -> Iterator[tuple[Session, SessionUpdate]]:
        """The session of `path`, up to date, and what this use read (`reset`: all of it).
        Raises `NotASession`, after which the next use reads the file whole."""
        with self._lock:
            try:
                yield self._current(Path(path).absolute())
            except NotASession:
                self._session = None
                raise

    def forget(self) -> None:
        """Let go of the session kept (a file now too large for the view)."""
        with self._lock:
            self._session = None

    def _current(self, path: Path) -> tuple[Session, SessionUpdate]:
        session = self._session
        if session is not None and session.path == path:
            return session, session.refresh()
        self._session = None  # the old one is let go of before the new one is read
        session = self._session = Session(path)
        return session, SessionUpdate(list(session.tree.entries), reset=True)
