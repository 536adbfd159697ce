"""Every file one session read, wrote or edited (its `read`, `write` and `edit` calls, paths
resolved as Pi's tools resolve them), with each file's calls: the session screen's files
view."""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pitui.core.file_history.session_changes import ERROR, NO_RESULT, OK, CallScan, result_of
from pitui.core.format.pi_paths import is_within, resolve_to_cwd
from pitui.core.format.tool_arguments import call_path
from pitui.core.session.session import Session

TOOLS = ("read", "write", "edit")


@dataclass(frozen=True, slots=True)
class FileCall:
    tool: str
    entry_id: str  # where the tree shows it: its result's entry, else the call's message
    call_entry_id: str  # the assistant message holding the call
    timestamp: Any  # the call's entry's, as written
    status: str  # OK, ERROR or NO_RESULT


@dataclass(slots=True)
class FileUse:
    path: str  # absolute
    shown: str  # relative to the session's folder when inside it
    calls: list[FileCall] = field(default_factory=list)  # in file order

    @property
    def counts(self) -> Counter[str]:
        """Calls by tool."""
        return Counter(call.tool for call in self.calls)

    @property
    def failed(self) -> int:
        return sum(call.status == ERROR for call in self.calls)


def shown_path(path: str, cwd: str) -> str:
    if cwd and posixpath.isabs(cwd) and is_within(cwd, path) and path != cwd:
        return posixpath.relpath(path, cwd)
    return path


def session_files(path: str) -> list[FileUse]:
    """The files the session at `path` read, wrote or edited, by path (failed calls and those
    without a result included, marked so). Raises `NotASession` (a `PituiError`) for a
    file that is not one; never writes it."""
    scan = CallScan(TOOLS)
    session = Session(path, on_line=scan.hear)
    tree = session.tree
    scan.parsed_whole(tree.entries)
    uses: dict[str, FileUse] = {}
    for call in scan.calls:
        raw_path = call_path(call.arguments)
        where = None if raw_path is None else resolve_to_cwd(raw_path, session.cwd)
        if where is None:
            continue
        result = result_of(call, scan, tree)
        status = NO_RESULT if result is None else ERROR if result.is_error else OK
        shown_at = call.entry.id if result is None else result.entry.id
        use = uses.setdefault(where, FileUse(where, shown_path(where, session.cwd)))
        use.calls.append(FileCall(call.name, shown_at, call.entry.id, call.entry.timestamp, status))
    return sorted(uses.values(), key=lambda use: use.shown)
