"""The session screen's title: the session's name, what the tree shows (and who else has the
file open: "open in pi (pid N)", as the picker's preview says), where it lives."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from pitui.core.format.migration import NEWER_FORMAT, is_newer
from pitui.core.live.open_by import Holder
from pitui.core.rows.render_text import message_text
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree
from pitui.ui.display_text import tilde
from pitui.ui.widgets.session_preview import open_in

TITLE_CHARS = 500  # more than any terminal shows on the title's line


class SessionHeader(Static, can_focus=True):
    """The session's title row; Enter here hands the session to pi (as on Pi's header)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"session-header--path"}
    DEFAULT_CSS = """
    SessionHeader > .session-header--path { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "screen.resume",
            "Resume",
            id="session.header_resume",
            tooltip="Resume this session in pi",
        ),
    ]

    def __init__(self, title: Text, *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self.holders: list[Holder] = []  # other processes holding the file (Linux /proc)
        self._shown: tuple[Session, Path, str | None, str, bool] | None = None
        self._first_said: tuple[SessionTree | None, str] = (None, "")

    def on_resize(self) -> None:
        self._show_again()  # its lines are cut to the width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._show_again()  # the path's colour is the theme's

    def _show_again(self) -> None:
        if self._shown is not None:
            self.show_session(*self._shown)

    def show_session(
        self, session: Session, path: Path, home: str | None, filter: str, label_times: bool
    ) -> None:
        """Two lines: the name, then what the tree shows (filter, entries, problems), kept
        whole at any width (the name gives way); then where the session lives."""
        self._shown = (session, path, home, filter, label_times)
        status = _status(session, filter, label_times)
        if self.holders:
            status.append(f"  open in {open_in(self.holders)}", style="yellow")
        width = self.content_region.width
        muted = self.get_component_rich_style("session-header--path")
        # kept once found, for this tree: a file rewritten by another program is a new tree
        if self._first_said[0] is not session.tree or not self._first_said[1]:
            self._first_said = (session.tree, _first_said(session))
        name = _title(
            session.tree.name, self._first_said[1], muted, max(8, width - status.cell_len)
        )
        place = Text(one_line(tilde(session.cwd, home)), style="cyan", no_wrap=True)
        place.append(Text(f"  {inert_path(tilde(str(path), home))}", style=muted))
        place.truncate(max(8, width), overflow="ellipsis")
        self.update(Text.assemble(name, status, "\n", place, no_wrap=True))


def _first_said(session: Session) -> str:
    """The start of the first user message (a whole pasted file is not made safe to cut it)."""
    first = next((e for e in session.tree.entries if e.role == "user"), None)
    return one_line(message_text(first.message)[:TITLE_CHARS]) if first is not None else ""


def _title(name: str | None, said: str, muted: Style, room: int) -> Text:
    """The session's name; unnamed, its first user message (`said`), as the picker's list
    titles it; cut to `room` cells."""
    title = Text(one_line(name or said), style="bold", no_wrap=True)
    note = "" if name else " (unnamed)" if said else "(unnamed session)"
    title.truncate(max(1, room - len(note)), overflow="ellipsis")
    title.append(note, style=muted)
    return title


def _status(session: Session, filter: str, label_times: bool) -> Text:
    count = len(session.tree.entries)
    status = Text(f"  filter: {filter}", style="bold")
    if label_times:
        status.append(" +label time")
    status.append(f"  {count:,} {'entry' if count == 1 else 'entries'}", style="dim")
    if session.diagnostics:
        status.append(f"  {len(session.diagnostics)} problems", style="yellow")
    if is_newer(session.header):
        status.append(f"  {NEWER_FORMAT}: read only", style="yellow")
    return status
