"""Preview of the picker's highlighted session: its summary, the entries that match the search
(role, time, a snippet with the words found highlighted), then first and last exchanges."""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from pitui.core.catalog.search.query import text_words
from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.catalog.summary import SessionSummary
from pitui.core.entry_search.search import EntryHit, session_matches
from pitui.core.live.open_by import Holder, writers_of
from pitui.core.rows.render_text import message_text
from pitui.core.rows.safe_text import one_line, visible
from pitui.core.session.entry import Entry
from pitui.core.session.followed import FollowedSession
from pitui.core.session.reader import NotASession
from pitui.core.session.session import Session
from pitui.ui.display_text import cost, count, stamp, tilde
from pitui.ui.failures import ReportsFailures, thread_worker
from pitui.ui.marks import MarkedRow
from pitui.ui.worker_messages import PreviewReady

# narrower screens hide the preview: at 40 columns it left the list 10 (pitui.tcss: -crowded)
SHOWN_FROM_WIDTH = 60
PREVIEW_MAX_BYTES = 8 * 1024 * 1024  # larger files: summary only (the session screen reads them)
EXCERPT_CHARS = 400
MATCHES_SHOWN = 3


class Exchanges:
    """(role, text) of the first and the last user/assistant exchange on a file's leaf path.

    The session last asked for is kept: asked again as it is being written (up to 4 times
    a second), only what was appended is read, and only its new messages are looked at.
    Message texts are read again when needed, not kept: the session stays its entries."""

    def __init__(self) -> None:
        self._followed = FollowedSession()
        self._says: dict[int, bool] = {}  # by entry index: whether the message says anything

    def of(self, path: Path) -> list[tuple[str, str]]:
        if os.path.getsize(path) > PREVIEW_MAX_BYTES:
            self._followed.forget()
            return []
        with self._followed.use(path) as (session, update):
            if update.reset:
                self._says = {}
            return self._picked(session)

    def _picked(self, session: Session) -> list[tuple[str, str]]:
        leaf = session.tree.leaf
        path_entries = session.tree.path_to(leaf.id) if leaf else []
        talk = [e for e in path_entries if e.role in ("user", "assistant") and self._said(e)]
        picked = talk[:2] if len(talk) <= 4 else [*talk[:2], *talk[-2:]]
        out = [(str(e.role), _text(e)[:EXCERPT_CHARS]) for e in picked]
        if len(talk) > 4:
            out.insert(2, ("...", f"{len(talk) - 4} more messages"))
        return out

    def _said(self, entry: Entry) -> bool:
        says = self._says.get(entry.index)
        if says is None:
            says = self._says[entry.index] = bool(_text(entry))
        return says


def _text(entry: Entry) -> str:
    message = entry.read_raw().get("message")
    return message_text(message).strip() if isinstance(message, dict) else ""


ROLE_STYLES = {"user": "bold cyan", "assistant": "bold green", "tool": "bold yellow"}


def search_words(query: str) -> list[str]:
    """The words and phrases of a search, to highlight (none for `re:`)."""
    return [word for word in text_words(query).split() if word]


def stamp_of(timestamp: object) -> str:
    """An entry's time as written (ISO), to the minute."""
    return one_line(str(timestamp))[:16].replace("T", " ") if timestamp else "-"


class SessionPreview(ReportsFailures, VerticalScroll):
    """Shows a `SessionSummary` at once; exchanges arrive from a thread worker."""

    class Loaded(Message):
        """The exchanges of the session shown have arrived."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.summary: SessionSummary | None = None
        self.home: str | None = None
        self._exchanges: list[tuple[str, str]] = []
        self._exchanges_of = Exchanges()  # read in thread workers, kept for the next read
        self._marks: tuple[bool, tuple[str, ...]] = (False, ())
        self._matches: tuple[list[EntryHit], int] = ([], 0)
        self.search_text = ""  # the picker's search: its matching entries are shown
        self._shown_query = ""
        # the exchanges of the session shown are on their way (said in the body: Textual's
        # `loading` overlay, set on every change of a session being written, piled up
        # detached indicators, 0.6 MiB/s of memory)
        self.reading = False
        self._holders: list[Holder] = []  # other processes holding it open for writing (/proc)
        self.folder_missing = False  # the session's cwd is no folder now (the move is offered)
        self.move_key = "alt+m"  # the key that offers it, as the picker has it (a remap)
        self._render_due = False

    def compose(self) -> ComposeResult:
        yield Static(id="preview-body")

    def on_mount(self) -> None:
        # the screen's width, not the preview's own: hidden, the preview gets no Resize
        self.screen.screen_layout_refresh_signal.subscribe(self, self._fit_screen)
        self._fit_screen(self.screen)

    def _fit_screen(self, screen: Screen) -> None:
        """Hidden on a narrow screen (a class, so the picker's own hiding rules stay)."""
        self.set_class(screen.size.width < SHOWN_FROM_WIDTH, "-crowded")

    def show(self, summary: SessionSummary | None, row: CatalogRow | None = None) -> None:
        """Show `summary`; `row`, its catalog row, may carry the session's pin and tags."""
        marks = (row.pinned, row.tags) if isinstance(row, MarkedRow) else (False, ())
        if (
            summary is self.summary
            and marks == self._marks
            and self.search_text == self._shown_query
        ):
            return
        shown = self.summary
        same_file = summary is not None and shown is not None and summary.path == shown.path
        self.summary, self._marks, self._shown_query = summary, marks, self.search_text
        if not same_file:  # a session being written keeps what it showed until read again
            self._exchanges, self._matches, self._holders = [], ([], 0), []
            self.folder_missing = False
        self.reading = summary is not None
        self._render_after_the_list()
        if summary is not None:
            self._load_exchanges(Path(summary.path), self.search_text, summary.cwd)

    @thread_worker("preview", "reading the preview", exclusive=True)
    def _load_exchanges(self, path: Path, query: str, cwd: str = "") -> None:
        matches: tuple[list[EntryHit], int] = ([], 0)
        try:
            found = self._exchanges_of.of(path)
            if query.strip() and os.path.getsize(path) <= PREVIEW_MAX_BYTES:
                matches = session_matches(str(path), query, MATCHES_SHOWN)
        except (NotASession, OSError) as error:
            found = [("!", f"cannot read: {error}")]
        holders = writers_of(path)  # as the session header: who may write to it
        missing = isinstance(cwd, str) and bool(cwd) and not os.path.isdir(cwd)
        self.post_message(PreviewReady(path, found, matches, holders, missing))

    def on_preview_ready(self, message: PreviewReady) -> None:
        message.stop()
        if self.summary is not None and Path(self.summary.path) == message.path:
            self._exchanges, self._matches = message.exchanges, message.matches
            self._holders = message.holders
            self.folder_missing = message.folder_missing
            self.reading = False
            self._render_body()
            self.post_message(self.Loaded())

    def _render_after_the_list(self) -> None:
        """Draw the body in the frame after this one, so that the rows the preview follows
        (a search's answer, a move of the cursor) are on screen first: the preview takes as
        long to lay out and draw as the list (3-9 ms of a 12-23 ms frame at 10,000 sessions)."""
        if not self._render_due:
            self._render_due = True
            self.call_after_refresh(self._render_now)

    def _render_now(self) -> None:
        self._render_due = False
        self._render_body()

    def _render_body(self) -> None:
        body = self.query_one("#preview-body", Static)
        summary = self.summary
        if summary is None:
            body.update(Text("No session highlighted", style="dim"))
            return
        parts: list[Text | Table] = [self._title(summary), self._facts(summary)]
        if self._matches[0]:
            parts.append(self._found())
        body.update(Group(*parts, self._talk()))

    def _found(self) -> Text:
        """The entries that match the search: role, time and a snippet, the words found
        highlighted; then how many more."""
        hits, total = self._matches
        text = Text()
        heading = "1 entry matches" if total == 1 else f"{total:,} entries match"  # not /tree rows
        text.append(f"\n{heading}\n", style="bold")
        words = search_words(self._shown_query)
        for hit in hits:
            text.append(f"{hit.role}", style=ROLE_STYLES.get(hit.role, "dim"))
            text.append(f"  {stamp_of(hit.timestamp)}  #{one_line(str(hit.id))}\n", style="dim")
            said = Text(one_line(hit.snippet) + "\n")
            said.highlight_words(words, style="reverse", case_sensitive=False)
            text.append_text(said)
        if total > len(hits):
            text.append(f"and {total - len(hits)} more\n", style="dim")
        return text

    def _title(self, summary: SessionSummary) -> Text:
        title = Text(
            one_line(summary.name or summary.first_message or "(no messages)"), style="bold"
        )
        if not summary.name:
            title.append("  (unnamed)", style="dim")
        title.append("\n")
        return title

    def _facts(self, s: SessionSummary) -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", no_wrap=True)
        table.add_column(overflow="fold")  # a folder, a file name, tags: whole, over lines
        rows = [
            ("cwd", tilde(s.cwd or "", self.home)),
            ("file", Path(s.path).name),
            ("created", stamp(s.created_ms)),
            ("modified", stamp(s.modified_ms)),
            ("entries", count(s.entry_count)),
            ("messages", count(s.message_count)),
            ("branches", count(s.branch_count)),
            ("labels", ", ".join(s.labels) or "-"),
            ("models", ", ".join(s.models) or "-"),
            ("tokens", count(s.total_tokens)),
            ("cost", cost(s.total_cost)),
        ]
        pinned, tags = self._marks
        if pinned:
            rows.insert(0, ("pinned", "yes (stays on top)"))
        if tags:
            rows.insert(1 if pinned else 0, ("tags", " ".join(tags)))
        if s.malformed_lines:
            bad = s.malformed_lines
            rows.append(("malformed", f"{count(bad)} line{'s' * (bad != 1)}"))
        if s.writing_in_progress:
            rows.append(("writing", "a line is being written"))
        if self._holders:
            rows.insert(0, ("open in", open_in(self._holders)))
        if self.folder_missing:
            rows.insert(1, ("folder", f"missing here ({self.move_key}: move its sessions)"))
        for key, value in rows:
            table.add_row(key, Text(one_line(str(value))))
        return table

    def _talk(self) -> Text:
        if self.reading and not self._exchanges:
            return Text("\nreading…", style="dim")
        text = Text()
        for role, said in self._exchanges:
            style = ROLE_STYLES.get(role, "dim")
            text.append(f"\n{role}\n", style=style)
            text.append(visible(said) + "\n")
        return text


def open_in(holders: list[Holder]) -> str:
    """ "pi (pid 4242)", one a process holding the file: a write now may split the session."""
    return ", ".join(f"{h.command or '?'} (pid {h.pid})" for h in holders)
