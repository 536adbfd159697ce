"""Every departure of one session file from Pi's format (`pitui check`): each line against
the models (`format/models.py`), lines that are not entries, the newline Pi ends every line
with, and the tree's links (a parent that is not in the file, an id that repeats, a cycle)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from pitui.core.format.migration import CURRENT_VERSION, is_newer
from pitui.core.format.models import check_entry, check_header
from pitui.core.session.entry import Entry
from pitui.core.session.prefetch import each_line
from pitui.core.session.reader import NewerFormat, NotASession
from pitui.core.session.session import Session

NOT_A_SESSION = "not a Pi session: "  # the one problem of a file that is not a session


@dataclass(frozen=True, slots=True)
class SessionCheck:
    """What checking one file found; `cwd`: its header's, when it is a session."""

    problems: list[Problem]
    cwd: str | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """One departure: its 1-based line (0: the file as a whole) and entry id, if any."""

    line: int
    id: str | None
    problem: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "id": self.id, "problem": self.problem}


def check_session(path: str | os.PathLike[str]) -> SessionCheck:
    """The departures of the file at `path`, in line order."""
    try:
        session = Session(path)
    except NewerFormat as error:
        return SessionCheck([Problem(1, None, str(error))])
    except NotASession as error:
        return SessionCheck([Problem(0, None, f"{NOT_A_SESSION}{error}")])
    problems = [*_header_problems(session), *_line_problems(session)]
    problems += _entry_problems(session.tree.entries)
    problems += _link_problems(session)
    return SessionCheck(sorted(problems, key=lambda p: p.line), session.cwd)


def _header_problems(session: Session) -> Iterator[Problem]:
    line, header = session.reader.header_line, session.header
    session_id = header.get("id") if isinstance(header.get("id"), str) else None
    for problem in check_header(header):
        yield Problem(line, session_id, f"header: {problem}")
    if is_newer(header):
        version = header["version"]
        text = f"header: version {version} is newer than the format pitui reads ({CURRENT_VERSION})"
        yield Problem(line, session_id, text)


def _line_problems(session: Session) -> Iterator[Problem]:
    for diagnostic in session.read_diagnostics:
        yield Problem(diagnostic.line, None, diagnostic.reason)
    reader = session.reader
    if reader.partial_bytes or reader.unterminated:
        last = session.tree.entries[-1].line if reader.unterminated else reader.lines_read + 1
        yield Problem(last, None, "the last line does not end with a newline")


def _entry_problems(entries: list[Entry]) -> Iterator[Problem]:
    for entry, line in each_line(entries):
        raw = entry.raw if line is None else entry.raw_of_line(line)
        for problem in check_entry(raw):
            yield Problem(entry.line, entry.raw_id, problem)


def _link_problems(session: Session) -> Iterator[Problem]:
    tree = session.tree
    cut = tree.cycle_breaks
    first_line: dict[str, int] = {}
    for entry in tree.entries:
        if entry.raw_id is None:
            continue
        if entry.raw_id in first_line:
            text = f"id {entry.raw_id} repeats the id of line {first_line[entry.raw_id]}"
            yield Problem(entry.line, entry.raw_id, text)
        else:
            first_line[entry.raw_id] = entry.line
    for entry in tree.entries:
        parent = entry.parent_id
        if parent is None:
            continue
        if parent == entry.id:
            yield Problem(entry.line, entry.raw_id, "parentId is the entry's own id")
        elif parent not in first_line:
            yield Problem(entry.line, entry.raw_id, f"parentId {parent} is no entry's id")
        elif entry.id in cut:
            yield Problem(entry.line, entry.raw_id, f"parentId {parent} closes a cycle")
