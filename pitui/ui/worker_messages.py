"""Messages from thread workers and watcher callbacks to the UI (Textual `Message`s)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the payloads' types only: the app's first frame loads none of these
    from pitui.core.catalog.scan.scan_pass import ScanReport
    from pitui.core.catalog.search.search import SearchResult
    from pitui.core.entry_search.search import EntryHit
    from pitui.core.live.live import LiveSession
    from pitui.core.live.open_by import Holder
    from pitui.core.remotes.sync import SyncResult
    from pitui.core.rows.rows import TreeRows
    from pitui.core.session.entry import Entry
    from pitui.core.session.session import Session
    from pitui.ui.widgets.context_pane import ContextView


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
    """A sync of the remotes' mirrors ended: one result a remote."""

    results: list[SyncResult]


@dataclass
class SyncProgress(Message):
    """A remote's sync moved on: `percent` of rsync's transfer done."""

    name: str
    percent: int


@dataclass
class CatalogScanned(Message):
    """A scan finished."""

    report: ScanReport


@dataclass
class SessionsChanged(Message):
    """Sessions changed on disk (watcher) or by us (`ours`: search at once, not on the
    writers' pace); the picker should search again."""

    notice: str | None = None
    ours: bool = False

    def can_replace(self, message: Message) -> bool:
        """This pending change may be dropped for a later one that says as much."""
        return (
            isinstance(message, SessionsChanged)
            and not self.notice
            and (message.ours or not self.ours)
        )


@dataclass(frozen=True)
class SearchRequest:
    """The question the picker's list answers."""

    query: str
    all_scope: bool
    sort: str
    named_only: bool
    archive: bool = False


@dataclass
class SearchDone(Message):
    """Result of one picker search, tagged with the request it answers; `asked` numbers the
    search (the picker counts them)."""

    request: SearchRequest
    result: SearchResult
    known: int | None  # the sessions in the index, counted only for an empty answer
    asked: int = 0
    took: float = 0.0  # seconds the search took


@dataclass
class PreviewReady(Message):
    path: Path
    exchanges: list[tuple[str, str]]
    matches: tuple[list[EntryHit], int] = ([], 0)  # the first entries matching the search, and all
    holders: list[Holder] = field(default_factory=list)  # other processes holding the file open
    folder_missing: bool = False  # its header's cwd is no folder now


@dataclass
class HoldersFound(Message):
    """The processes (but pitui) holding the session screen's file open (Linux /proc)."""

    path: Path
    holders: list[Holder]


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
    """The session screen's file is read; `rows` the tree's rows, built in the worker too."""

    session: Session
    live: LiveSession
    rows: TreeRows


@dataclass
class ContextBuilt(Message):
    entry_id: str
    context: ContextView


@dataclass
class LiveAppended(Message):
    entries: list[Entry]


@dataclass
class LiveReloaded(Message):
    pass


@dataclass
class LiveGone(Message):
    reason: str


@dataclass
class SessionRemoved(Message):
    """A session was trashed by us: the catalog forgets it and screens showing it close."""

    path: Path


@dataclass
class TreeSearched(Message):
    """Rows of the session tree matching `text` (found in a worker thread)."""

    text: str
    matches: list[int]
