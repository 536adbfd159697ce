"""Messages from thread workers and watcher callbacks to the UI (Textual `Message`s)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message


@dataclass
class CatalogProgress(Message):
    """The catalog has indexed `done` of `total` files (coalesced: only the latest counts)."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, CatalogProgress)


@dataclass
class SearchIndexProgress(Message):
    """The background pass has indexed `done` of `total` bytes of conversation text and tool
    output for search (coalesced: only the latest counts)."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SearchIndexProgress)


@dataclass
class RemotesSynced(Message):
    """A sync of the remotes' mirrors ended; `results` are `SyncResult`s, one a remote."""

    results: list[Any]


@dataclass
class SyncProgress(Message):
    """A remote's sync moved on: `percent` of rsync's transfer done."""

    name: str
    percent: int


@dataclass
class CatalogScanned(Message):
    """A scan finished; `report` is the catalog's ScanReport."""

    report: Any


@dataclass
class CatalogChanged(Message):
    """Sessions changed on disk (watcher) or by us; the picker should search again."""

    notice: str | None = None

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, CatalogChanged) and not message.notice


@dataclass
class SearchDone(Message):
    """Result of one picker search, tagged with the request it answers."""

    request: Any
    result: Any


@dataclass
class PreviewReady(Message):
    path: Any
    exchanges: list[tuple[str, str]]
    matches: tuple[list[Any], int] = ([], 0)  # the first entries matching the search, and all
    holders: list[Any] = field(default_factory=list)  # other processes holding the file open
    folder_missing: bool = False  # its header's cwd is no folder now


@dataclass
class HoldersFound(Message):
    """The processes (but pitui) holding the session screen's file open (Linux /proc)."""

    path: Any
    holders: list[Any]


@dataclass
class SessionProgress(Message):
    """`done` of `total` bytes of the session screen's file are read (only the latest counts);
    `total` 0: reading is done, the tree is being built."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SessionProgress) and bool(message.total) and bool(self.total)


@dataclass
class SessionLoaded(Message):
    """The session screen's file is read; `session` is a core Session (or LiveSession),
    `rows` the tree's rows, built in the worker too."""

    session: Any
    live: Any = None
    rows: Any = None


@dataclass
class ContextBuilt(Message):
    entry_id: str
    context: Any


@dataclass
class LiveAppended(Message):
    entries: list[Any]


@dataclass
class LiveReloaded(Message):
    pass


@dataclass
class LiveGone(Message):
    reason: str


@dataclass
class SessionRemoved(Message):
    """A session was trashed by us: the catalog forgets it and screens showing it close."""

    path: Any


@dataclass
class TreeSearched(Message):
    """Rows of the session tree matching `text` (found in a worker thread)."""

    text: str
    matches: list[int]
