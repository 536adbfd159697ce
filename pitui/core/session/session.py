"""One open session: its reader, its tree, and what reading it found wrong."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pitui.core.session.collector import collector_paused
from pitui.core.session.context import Context, build_context
from pitui.core.session.entry import Diagnostic, Entry, decode_entry
from pitui.core.session.reader import LineDecoder, LineHook, Progress, SessionReader
from pitui.core.session.tree import SessionTree


@dataclass(slots=True)
class SessionUpdate:
    """Entries a refresh added; `reset` means the session was reloaded whole."""

    entries: list[Entry] = field(default_factory=list)
    reset: bool = False

    def __bool__(self) -> bool:
        return bool(self.entries) or self.reset


class Session:
    """A session file loaded into a tree, kept up to date with `refresh()`.

    Raises `NotASession` (from the reader) when the file is not a session or unreadable.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        progress: Progress | None = None,
        on_line: LineHook | None = None,
        decode: LineDecoder = decode_entry,
    ) -> None:
        """`on_line`: hears each line as it is read (see `LineHook`), decoded by `decode`."""
        self.path = Path(path).absolute()
        self.reader = SessionReader(self.path, on_line, decode)
        self.tree = SessionTree()
        self.read_diagnostics: list[Diagnostic] = []
        self.refresh(progress)

    @property
    def header(self) -> dict[str, Any]:
        assert self.reader.header is not None
        return self.reader.header

    @property
    def id(self) -> str:
        return str(self.header.get("id"))

    @property
    def cwd(self) -> str:
        cwd = self.header.get("cwd")
        return cwd if isinstance(cwd, str) else ""

    @property
    def version(self) -> int:
        return self.reader.version

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [*self.read_diagnostics, *self.tree.diagnostics]

    @property
    def writing_in_progress(self) -> bool:
        """The last line has no newline yet (even one read as a whole entry): Pi may be
        writing it, and nothing must be appended onto it."""
        return self.reader.partial_bytes > 0 or self.reader.unterminated

    def refresh(self, progress: Progress | None = None) -> SessionUpdate:
        with collector_paused():
            return self._refresh(progress)

    def _refresh(self, progress: Progress | None) -> SessionUpdate:
        batch = self.reader.refresh(progress)
        if batch.reset:
            self.tree = SessionTree()
            self.read_diagnostics = []
        self.read_diagnostics.extend(batch.diagnostics)
        self.tree.extend(batch.entries, batch.links)
        return SessionUpdate(batch.entries, batch.reset)

    def context(self, leaf_id: str | object | None = ...) -> Context:
        return build_context(self.tree, leaf_id)
