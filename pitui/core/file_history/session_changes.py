"""The `write` and `edit` calls of one session: where each wrote (resolved as Pi resolves
it, against the session's cwd), whether its result was an error, whether it is on the
session's active branch, and the lines it added and removed.

A call is a `toolCall` block of an assistant message; its result, the `toolResult` message
whose `toolCallId` names it. Lines are read once as the session loads: only those that may
hold such a call or result (their bytes say `"write"` or `"edit"`) are parsed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pitui.core.file_history.line_counts import details_counts, edit_counts, write_counts
from pitui.core.format.entry_types import EntryType
from pitui.core.format.jsvalues import js_truthy
from pitui.core.format.pi_paths import resolve_to_cwd
from pitui.core.format.timestamps import sort_key
from pitui.core.format.tool_arguments import (
    FILE_TOOLS,
    Replacement,
    call_path,
    edit_replacements,
    write_content,
)
from pitui.core.session.entry import Entry
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree

OK, ERROR, NO_RESULT = "ok", "error", "no result"
ACTIVE, ABANDONED = "active", "abandoned"


@dataclass(slots=True)
class FileChange:
    """One write or edit call."""

    path: str  # absolute, as Pi's tool resolved it
    tool: str  # "write" | "edit"
    session_path: str
    session_id: Any  # the header's id, as written
    entry_id: str  # the assistant message holding the call
    timestamp: Any  # that entry's, as written
    call_id: Any
    line: int  # the entry's line in the session file
    block: int  # the call's place among the message's content blocks
    status: str  # OK, ERROR (the result says isError: nothing changed) or NO_RESULT
    branch: str  # ACTIVE (on the path to the session's leaf) or ABANDONED
    added: int
    removed: int
    content: str | None = None  # a write's
    edits: tuple[Replacement, ...] = ()  # an edit's, as Pi's tool normalised them
    result_timestamp: Any = None

    @property
    def succeeded(self) -> bool:
        return self.status == OK

    @property
    def order(self) -> tuple[float, str, int, int]:
        """Oldest first: the time of its result (else of its call), then file order."""
        when = sort_key(self.result_timestamp)
        if when == sort_key(None):
            when = sort_key(self.timestamp)
        return (when, self.session_path, self.line, self.block)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "sessionId": self.session_id,
            "id": self.entry_id,
            "tool": self.tool,
            "timestamp": self.timestamp,
            "added": self.added,
            "removed": self.removed,
            "branch": self.branch,
        }


@dataclass(slots=True)
class _Call:
    entry: Entry
    block: int
    name: str
    call_id: Any
    arguments: Any


@dataclass(slots=True)
class _Result:
    entry: Entry
    is_error: bool
    details: Any


@dataclass
class CallScan:
    """The calls of `tools` in a session as it loads (`hear`), and their results."""

    tools: tuple[str, ...] = FILE_TOOLS
    calls: list[_Call] = field(default_factory=list)
    results: dict[Any, list[_Result]] = field(default_factory=dict)
    heard: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._names = [f'"{tool}"'.encode() for tool in self.tools]

    def hear(self, entry: Entry, line: memoryview) -> None:
        self.heard.add(id(entry))
        # a bare string, not EntryType (~80 ns a time): this runs per line while loading
        if entry.type != "message" or entry.role not in ("assistant", "toolResult"):
            return
        data = bytes(line)
        if not any(name in data for name in self._names):
            return
        if entry.role == "assistant" and b'"toolCall"' not in data:
            return
        self.take(entry, entry.raw_of_line(data))

    def parsed_whole(self, entries: list[Entry]) -> None:
        message = EntryType.MESSAGE  # bound once: the test runs per entry
        for entry in entries:
            if id(entry) not in self.heard and entry.type == message:
                self.take(entry, entry.raw)

    def take(self, entry: Entry, raw: dict[str, Any]) -> None:
        message = raw.get("message")
        if not isinstance(message, dict):
            return
        role = message.get("role")
        if role == "assistant" and isinstance(message.get("content"), list):
            for block, part in enumerate(message["content"]):
                if (
                    isinstance(part, dict)
                    and part.get("type") == "toolCall"
                    and part.get("name") in self.tools
                ):
                    call = _Call(entry, block, part["name"], part.get("id"), part.get("arguments"))
                    self.calls.append(call)
        elif role == "toolResult" and message.get("toolName") in self.tools:
            result = _Result(entry, js_truthy(message.get("isError")), message.get("details"))
            key = message.get("toolCallId")
            if isinstance(key, str):
                self.results.setdefault(key, []).append(result)


def session_changes(path: str) -> list[FileChange]:
    """Every write and edit call of the session at `path`, in file order (failed ones and
    those without a result included, marked so). Raises `NotASession` (a `PituiError`)
    for a file that is not one; never writes it."""
    scan = CallScan()
    session = Session(path, on_line=scan.hear)
    tree = session.tree
    scan.parsed_whole(tree.entries)
    active = tree.active_path_ids()
    changes = []
    for call in scan.calls:
        change = _change(call, scan, tree, session, active)
        if change is not None:
            changes.append(change)
    return changes


def _change(
    call: _Call, scan: CallScan, tree: SessionTree, session: Session, active: set[str]
) -> FileChange | None:
    raw_path = call_path(call.arguments)
    path = None if raw_path is None else resolve_to_cwd(raw_path, session.cwd)
    if path is None:
        return None
    result = result_of(call, scan, tree)
    status = NO_RESULT if result is None else ERROR if result.is_error else OK
    content: str | None = None
    edits: tuple[Replacement, ...] = ()
    if call.name == "write":
        content = write_content(call.arguments)
        if content is None:
            if status == OK:
                return None  # Pi never runs a write without content: not a write we know
            content = ""
        counts = write_counts(content)
    else:
        replacements = edit_replacements(call.arguments)
        if replacements is None:
            if status == OK:
                return None
            replacements = []
        edits = tuple(replacements)
        found = details_counts(result.details) if result is not None and status == OK else None
        counts = found or edit_counts(edits)
    return FileChange(
        path=path,
        tool=call.name,
        session_path=str(session.path),
        session_id=session.header.get("id"),
        entry_id=call.entry.id,
        timestamp=call.entry.timestamp,
        call_id=call.call_id,
        line=call.entry.line,
        block=call.block,
        status=status,
        branch=ACTIVE if call.entry.id in active else ABANDONED,
        added=counts[0],
        removed=counts[1],
        content=content,
        edits=edits,
        result_timestamp=None if result is None else result.entry.timestamp,
    )


def result_of(call: _Call, scan: CallScan, tree: SessionTree) -> _Result | None:
    """The call's result: the one that follows it in the tree when the same call id has
    several (a copied branch), else the only one."""
    found = scan.results.get(call.call_id) if isinstance(call.call_id, str) else None
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    for result in found:
        if any(e is call.entry for e in tree.ancestors(result.entry.id)):
            return result
    return found[0]
