"""The entries of one session file that match: each line read once, as the session loads.

The reader hands every line of the fast path to `_Scan.hear` with its bytes: a line of
another role, of an entry that says nothing, or whose bytes rule it out (`may_match_line`)
is never parsed. Lines the reader parsed whole (older formats, unusual shapes) are looked at
after loading, from their JSON in memory. Filters that need the whole file (an entry's
label) are applied last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pitui.core.entry_search.matcher import EntryMatcher
from pitui.core.entry_search.said import SAYING_TYPES, role_of, role_selected, said_text
from pitui.core.format.jsvalues import normalize_ws_lower
from pitui.core.format.timestamps import local_minutes, to_ms
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session

if TYPE_CHECKING:
    from pitui.core.catalog.summary import SessionSummary


@dataclass(slots=True)
class EntryHit:
    """One matching entry: where it is, and its text (for the snippet)."""

    path: str
    session_id: Any
    id: str
    role: str
    timestamp: Any  # as written (an ISO string, or whatever the line holds)
    line: int
    text: str
    snippet: str = ""  # for a terminal: controls and lone surrogates made visible
    snippet_text: str = ""  # the same text as the session holds it (for JSON)
    summary: SessionSummary | None = None  # its session's, as listed (store: a remote's name)

    def set_snippet(self, text: str) -> None:
        """The snippet: `text` cut from the entry's (`snippet.cut`)."""
        self.snippet_text = text
        self.snippet = one_line(text)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "sessionId": self.session_id,
            "id": self.id,
            "role": self.role,
            "timestamp": self.timestamp,
            "snippet": self.snippet_text,  # as `pitui list --json` writes text (JSON.stringify)
            "line": self.line,
        }

    def to_line(self, mark: str = "") -> str:
        """`pitui grep`'s line, `PATH:LINE  ID  ROLE  TIME  MARK SNIPPET` (`mark`: `(NAME) `
        for a remote's session, as `pitui list` marks it), every field inert."""
        ms = to_ms(self.timestamp)
        when = "?" if ms is None else local_minutes(ms)
        where = f"{inert_path(self.path)}:{self.line}"
        said = f"{mark}{self.snippet}"
        return f"{where}  {one_line(self.id)}  {one_line(self.role):<9}  {when:<16}  {said}\n"


class _Scan:
    def __init__(self, matcher: EntryMatcher, role: str | None) -> None:
        self.matcher, self.role = matcher, role
        self.found: list[tuple[Entry, str]] = []
        self.heard: set[int] = set()

    def hear(self, entry: Entry, line: memoryview) -> None:
        self.heard.add(id(entry))
        if not self._wanted(entry):
            return
        data = bytes(line)
        if self.matcher.may_match_line(data):
            self._check(entry, entry.raw_of_line(data))

    def _wanted(self, entry: Entry) -> bool:
        kind = entry.type
        return kind in SAYING_TYPES and role_selected(role_of(kind, entry.role), self.role)

    def _check(self, entry: Entry, raw: dict[str, Any]) -> None:
        text = said_text(raw)
        if text is not None and self.matcher.matches(text):
            self.found.append((entry, text))

    def parsed_whole(self, entries: list[Entry]) -> None:
        for entry in entries:
            if id(entry) not in self.heard and self._wanted(entry):
                self._check(entry, entry.raw)


def session_hits(path: str, matcher: EntryMatcher, role: str | None = None) -> list[EntryHit]:
    """The matching entries of the session at `path`, in file order, without snippets.
    Raises `NotASession` (a `PituiError`) for a file that is not one."""
    scan = _Scan(matcher, role)
    session = Session(path, on_line=scan.hear)
    tree = session.tree
    scan.parsed_whole(tree.entries)
    query = matcher.query
    labels = [value for key, value in query.filters if key == "label"]
    hits = []
    for entry, text in sorted(scan.found, key=lambda found: found[0].line):
        label = tree.labels.get(entry.id)
        if labels and not _labelled(label.text if label else None, labels):
            continue
        if not _in_time(entry.timestamp, query.after_ms, query.before_ms):
            continue
        hits.append(
            EntryHit(
                path=str(session.path),
                session_id=session.header.get("id"),
                id=entry.id,
                role=role_of(entry.type, entry.role),
                timestamp=entry.timestamp,
                line=entry.line,
                text=text,
            )
        )
    return hits


def _labelled(label: str | None, wanted: list[str]) -> bool:
    return label is not None and all(value in normalize_ws_lower(label) for value in wanted)


def _in_time(timestamp: Any, after_ms: int | None, before_ms: int | None) -> bool:
    if after_ms is None and before_ms is None:
        return True
    ms = to_ms(timestamp)
    if ms is None:
        return False
    return (after_ms is None or ms >= after_ms) and (before_ms is None or ms < before_ms)
