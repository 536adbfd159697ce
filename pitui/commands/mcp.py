"""`pitui mcp [--session-dir DIR]`: a read-only Model Context Protocol server on stdio.

Agents search and read Pi sessions, and ask which sessions changed a file, through five
tools. Every answer is typed (each tool
publishes its `outputSchema`; the text is the same JSON, compact, without empty fields),
bounded (a page of at most `limit` items and about 60,000 characters) and has secrets
redacted unless the call asks otherwise, paths included. Arguments out of range or too long
get a one-line error. The server has tools only (no resources, no prompts), logs warnings
only and never waits on its stderr, and answers every line it reads (`mcp_stdio`). The `mcp`
package is imported here only, so no other command pays for it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Iterable
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,  # pydantic needs these before 3.12
    TypeVar,
)

from pydantic import Field
from typing_extensions import TypedDict

from pitui.commands.support.json_output import compact_json
from pitui.commands.support.store_options import all_sessions
from pitui.core.catalog.search.query import MAX_QUERY
from pitui.core.catalog.search.resolve import resolve_session
from pitui.core.catalog.summary import SessionSummary
from pitui.core.entry_search.search import search_entries
from pitui.core.errors import PituiError
from pitui.core.export.pages import MAX_LIMIT as MAX_ENTRIES
from pitui.core.export.pages import PAGE_CHARS, branch_page, context_page
from pitui.core.export.redactor import Redactor
from pitui.core.file_history.history import file_history as history_of_file
from pitui.core.file_history.history import related_to, targets_of
from pitui.core.file_history.session_changes import FileChange
from pitui.core.listing.catalogs import KeptCatalogs
from pitui.core.listing.sessions import (
    SessionsInScope,
    list_sessions,
    refuse_bad_query,
    sessions_in_scope,
    with_marks,
)
from pitui.core.rows.safe_text import one_line
from pitui.core.session.session import Session
from pitui.core.userdata.arrange import split_query
from pitui.core.userdata.moves import earlier_paths, folder_moves
from pitui.core.version import pitui_version

INSTRUCTIONS = (
    "Search and read the user's Pi coding-agent sessions (read-only). Find sessions with "
    "search_sessions or single messages with search_entries, then read one with "
    "read_session (a page of its branch, with entry ids) or get_context (the messages the "
    "model was sent), naming it by its id. file_history tells which sessions wrote or "
    "edited a file, and when. Secrets are redacted unless redact=false."
)
QUERY_HELP = (
    'Search text as in `pitui list`: words (all must match, case-insensitive), "an exact '
    'phrase", or re:REGEX; filters cwd:, name:, label:, model:, after:YYYY-MM-DD, before:...'
)
_Json = TypeVar("_Json")
MAX_RESULTS = 100
MAX_REFERENCE = 4_096  # characters of a session's path or id
MAX_ENTRY_ID = 1_000
SNIPPET_FIRST_MESSAGE = 300
EMPTY_FOLDER_NOTE = (
    'no session of this folder matches; scope: "all" searches every folder\'s sessions'
)

Scope = Annotated[
    Literal["folder", "all"],
    Field(
        description="folder: the sessions of the folder the server runs in (Pi's project); "
        "all: every session, the remotes' mirrored ones too (store: the remote's name; "
        "in:local in the query leaves them out)"
    ),
]
SessionRef = Annotated[
    str,
    Field(
        description="The session's id (as search results give it), an unambiguous id "
        "prefix, or its file's path",
        json_schema_extra={"maxLength": MAX_REFERENCE},
    ),
]
Leaf = Annotated[
    str | None,
    Field(
        description="Entry id of the leaf (default: the session's active leaf)",
        json_schema_extra={"maxLength": MAX_ENTRY_ID},
    ),
]
Offset = Annotated[
    int,
    Field(
        description="How many results, entries or messages to skip (for the next page)",
        json_schema_extra={"minimum": 0},
    ),
]
Redact = Annotated[
    bool, Field(description="Replace secrets (API keys, tokens, passwords) with [REDACTED:kind]")
]
Query = Annotated[str, Field(description=QUERY_HELP, json_schema_extra={"maxLength": MAX_QUERY})]
FilePath = Annotated[
    str,
    Field(
        description="A file, or a folder (everything under it): absolute, or relative to the "
        "folder the server runs in",
        json_schema_extra={"maxLength": MAX_REFERENCE},
    ),
]
FileScope = Annotated[
    Literal["folder", "all"],
    Field(
        description="folder: the sessions run in a folder that holds the path, or anywhere "
        "under its folder (a file's: the folder it is in), those that could name it "
        "relatively; all: every session"
    ),
]
NOTHING_NOTE = "no successful write or edit in these sessions touched it"


def _limit_field(what: str, most: int) -> Any:
    return Field(
        description=f"At most this many {what} (1-{most})",
        json_schema_extra={"minimum": 1, "maximum": most},
    )


class SessionFound(TypedDict):
    """A session (`pitui list --json`'s fields, those without a value left out)."""

    id: NotRequired[str]  # Pi lists a header whose id is null too
    path: str
    cwd: str
    name: NotRequired[str]
    created: NotRequired[str]
    modified: NotRequired[str]
    messageCount: int
    firstMessage: NotRequired[str]
    parentSessionPath: NotRequired[str]
    entryCount: NotRequired[int]
    branchCount: NotRequired[int]
    labels: NotRequired[list[Any]]
    models: NotRequired[list[Any]]
    totalTokens: NotRequired[float]
    totalCost: NotRequired[float]
    malformedLines: NotRequired[int]
    writingInProgress: NotRequired[bool]
    newerFormat: NotRequired[bool]
    store: NotRequired[str]
    remotePath: NotRequired[str]
    pinned: NotRequired[bool]
    tags: NotRequired[list[str]]


class SessionsPage(TypedDict):
    sessions: list[SessionFound]
    offset: int
    nextOffset: NotRequired[int]
    note: NotRequired[str]


class EntryFound(TypedDict):
    sessionId: str
    path: str
    id: str
    role: str
    timestamp: NotRequired[str]
    line: int
    snippet: str
    store: NotRequired[str]
    remotePath: NotRequired[str]


class EntriesPage(TypedDict):
    entries: list[EntryFound]
    offset: int
    nextOffset: NotRequired[int]
    note: NotRequired[str]


class FileChangeFound(TypedDict):
    """A successful write or edit call (`pitui log --json`'s fields)."""

    path: str  # the session's file
    sessionId: str
    id: str  # the assistant message holding the call
    tool: str
    timestamp: NotRequired[str]
    added: int
    removed: int
    branch: str  # "active", or "abandoned": on a branch the session left
    file: str  # the file it wrote


class FileHistoryPage(TypedDict):
    changes: list[FileChangeFound]
    offset: int
    nextOffset: NotRequired[int]
    note: NotRequired[str]


class EntryShown(TypedDict):
    n: int
    id: str
    type: NotRequired[str]
    timestamp: NotRequired[str]
    text: str


class BranchPage(TypedDict):
    sessionId: str
    name: NotRequired[str]
    cwd: str
    leaf: NotRequired[str]
    total: int
    offset: int
    nextOffset: NotRequired[int]
    truncated: NotRequired[bool]
    entries: list[EntryShown]


class ContextPage(TypedDict):
    sessionId: str
    leaf: NotRequired[str]
    thinkingLevel: NotRequired[str]
    model: NotRequired[dict[str, Any]]
    estimatedTokens: int
    messageCount: int
    offset: int
    nextOffset: NotRequired[int]
    truncated: NotRequired[bool]
    messages: list[Any]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not use the catalog index")
    parser.epilog = (
        "Add it to Pi with the full path of this pitui (a bare `pitui` is not found "
        f"outside its environment):\n  {pi_mcp_add_line()}"
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def pi_mcp_add_line() -> str:
    """`pi mcp add pitui -- /full/path/of/pitui mcp`, for the pitui running now."""
    return shlex.join(["pi", "mcp", "add", "pitui", "--", *_this_pitui(), "mcp"])


def _this_pitui() -> list[str]:
    program = sys.argv[0] if sys.argv and sys.argv[0] else "pitui"
    if os.path.basename(program) == "__main__.py":  # python -m pitui
        return [os.path.abspath(sys.executable), "-m", "pitui"]
    found = program if os.sep in program else shutil.which(program)
    return [os.path.abspath(found)] if found else [os.path.abspath(sys.executable), "-m", "pitui"]


def run(args: argparse.Namespace) -> int:
    from pitui.commands.support.mcp_stdio import (
        quiet_logging,
        serve,
    )  # deferred: the mcp SDK, ~0.6 s off `pitui mcp --help`

    quiet_logging()
    serve(build_server(args.session_dir, args.no_cache))
    return 0


def build_server(session_dir: str | None = None, no_cache: bool = False) -> Any:
    """The server and its five read-only tools (and nothing else: no resources, prompts or
    subscriptions)."""
    # deferred: the mcp SDK, ~0.6 s off `pitui mcp --help`
    from mcp_types import ToolAnnotations

    from pitui.commands.support.mcp_tools import tools_server, typed_tool

    tools = _Tools(session_dir, no_cache)
    read_only = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    typed = [
        typed_tool(tool, read_only)
        for tool in (
            tools.search_sessions,
            tools.search_entries,
            tools.read_session,
            tools.get_context,
            tools.file_history,
        )
    ]
    return tools_server("pitui", pitui_version(), INSTRUCTIONS, typed)


class _Tools:
    def __init__(self, session_dir: str | None, no_cache: bool) -> None:
        self.session_dir, self.no_cache = session_dir, no_cache
        self.catalogs = KeptCatalogs()  # open for the server's life: a call scans changes only

    def search_sessions(
        self,
        query: Query = "",
        scope: Scope = "folder",
        limit: Annotated[int, _limit_field("sessions", MAX_RESULTS)] = 20,
        offset: Offset = 0,
        redact: Redact = True,
    ) -> SessionsPage:
        """Find Pi sessions (what `pitui list --json` answers): each with its id, path, cwd,
        name, times, message count and first message. With a query, the best matches come
        first (the picker's relevance order: a session's name before its text); without
        one, every session, newest first."""
        _check_query(query, allow_empty=True)
        limit, start = _limit(limit, MAX_RESULTS), _start(offset)
        result, marks, _ = list_sessions(
            query,
            every=scope == "all",
            session_dir=self.session_dir,
            no_cache=self.no_cache,
            sort="relevance" if query.strip() else "recent",
            store=all_sessions() if scope == "all" else "local",
            catalogs=self.catalogs,
        )
        if result.error:
            raise PituiError(result.error)
        redactor = Redactor(redact)
        rows = result.rows[start : start + limit]
        found = _fill_page(
            _session_json(with_marks(row.summary.to_json(), row, marks), redactor) for row in rows
        )
        page: SessionsPage = {"sessions": found, "offset": start}
        if start + len(found) < len(result.rows):
            page["nextOffset"] = start + len(found)
        if not result.rows and scope == "folder":
            page["note"] = EMPTY_FOLDER_NOTE
        return page

    def search_entries(
        self,
        query: Query,
        scope: Scope = "folder",
        role: Annotated[
            Literal["user", "assistant", "tool"] | None,
            Field(description="Only entries of this role (tool: tool and bash output)"),
        ] = None,
        limit: Annotated[int, _limit_field("entries", MAX_RESULTS)] = 20,
        offset: Offset = 0,
        redact: Redact = True,
    ) -> EntriesPage:
        """Find single entries (messages) across sessions, newest session first (what
        `pitui grep --json` answers): each with its session's id and path, the entry id,
        role, time, line and a one-line snippet. An entry matches on its own text: user and
        assistant text, thinking, tool calls and tool output. Read around a hit with
        read_session (session=sessionId, leaf=id)."""
        _check_query(query, allow_empty=False)
        limit, start = _limit(limit, MAX_RESULTS), _start(offset)
        scope_ = self._scope(query, scope)
        result = search_entries(
            scope_.sessions, scope_.text, role=role, limit=limit, offset=start, redact=redact
        )
        if result.error:
            raise PituiError(result.error)
        redactor = Redactor(redact)
        cwds = {s.path: s.cwd for s in scope_.sessions}
        found: list[EntryFound] = [_hit_json(hit, redactor, cwds) for hit in result.hits]
        page: EntriesPage = {"entries": found, "offset": start}
        if result.more:
            page["nextOffset"] = start + len(found)
        if not found and scope == "folder" and start == 0:
            page["note"] = EMPTY_FOLDER_NOTE
        return page

    def read_session(
        self,
        session: SessionRef,
        leaf: Leaf = None,
        offset: Annotated[
            int,
            Field(
                description="First entry to show, counted from the branch's root (0)",
                json_schema_extra={"minimum": 0},
            ),
        ] = 0,
        limit: Annotated[int, _limit_field("entries", MAX_ENTRIES)] = 20,
        redact: Redact = True,
    ) -> BranchPage:
        """Read a session's branch (its active one, or the one ending at `leaf`), a page of
        entries at a time: each its number on the branch (n), id, time and text (Markdown;
        a message's heading says its role). nextOffset reads on; pass the page's leaf back
        to stay on the same branch while the session grows. Texts over 20,000 characters
        are cut (truncated: true)."""
        return self._leaf_page(branch_page, session, leaf, offset, limit, redact)

    def get_context(
        self,
        session: SessionRef,
        leaf: Leaf = None,
        offset: Annotated[
            int, Field(description="First message to show", json_schema_extra={"minimum": 0})
        ] = 0,
        limit: Annotated[int, _limit_field("messages", MAX_ENTRIES)] = 20,
        redact: Redact = True,
    ) -> ContextPage:
        """Exactly what the model was sent from a leaf (`pitui context --json`): the model,
        thinking level and messages as Pi builds them (compaction summaries, omitted and
        replaced messages applied), a page of messages at a time (nextOffset reads on).
        Strings over 20,000 characters are cut, images' data and the parts past the
        page's size left out (truncated: true)."""
        return self._leaf_page(context_page, session, leaf, offset, limit, redact)

    def file_history(
        self,
        path: FilePath,
        scope: FileScope = "folder",
        limit: Annotated[int, _limit_field("calls", MAX_RESULTS)] = 20,
        offset: Offset = 0,
        redact: Redact = True,
    ) -> FileHistoryPage:
        """Which sessions changed a file, how and when (what `pitui log --json` answers):
        every successful write and edit call that touched it (a folder: anything under
        it), newest first, each with its session's id and path, the entry id of the
        assistant message that made the call (read around it with read_session,
        session=sessionId, leaf=id), the tool, time, lines added and removed, and whether
        it is on a branch the session later abandoned. Failed calls changed nothing and
        are left out."""
        if not path.strip():
            raise PituiError("file_history needs a path")
        if len(path) > MAX_REFERENCE:
            raise PituiError(
                f"path: at most {MAX_REFERENCE:,} characters (this one has {len(path):,})"
            )
        limit, start = _limit(limit, MAX_RESULTS), _start(offset)
        targets = targets_of(path)
        # this machine's files, only those the index says wrote a target
        moves = folder_moves()
        keep = None if scope == "all" else related_to(targets, moves)
        writing = earlier_paths(targets, moves)  # written under a folder since moved
        sessions = self._scope("", "all", remotes=False, keep=keep, writing=writing).sessions
        history = history_of_file(sessions, targets, with_text=False, moves=moves)
        redactor = Redactor(redact)
        cwds = {s.path: s.cwd for s in sessions}
        changes = history.changes[start : start + limit]
        found = _fill_page(_change_json(change, redactor, cwds) for change in changes)
        page: FileHistoryPage = {"changes": found, "offset": start}
        if start + len(found) < len(history.changes):
            page["nextOffset"] = start + len(found)
        if not history.changes:
            page["note"] = NOTHING_NOTE + (
                '; scope: "all" reads every session' if scope != "all" else ""
            )
        return page

    # -- helpers -----------------------------------------------------------------------------

    def _scope(
        self,
        query: str,
        scope: str,
        remotes: bool = True,
        keep: Callable[[SessionSummary], bool] | None = None,
        writing: tuple[str, ...] | None = None,
    ) -> SessionsInScope:
        """The sessions of this folder, or all ("all": with the remotes' mirrors unless not
        `remotes`, as `pitui grep --all`); `keep` and `writing` narrow them (see
        `sessions_in_scope`)."""
        return sessions_in_scope(
            query,
            every=scope == "all",
            session_dir=self.session_dir,
            no_cache=self.no_cache,
            store=all_sessions(remotes) if scope == "all" else "local",
            catalogs=self.catalogs,
            keep=keep,
            writing=writing,
        )

    def _leaf_page(
        self,
        page: Callable[..., dict[str, Any]],
        session: str,
        leaf: str | None,
        offset: int,
        limit: int,
        redact: bool,
    ) -> Any:
        """A page of the session from `leaf` (`page`: branch_page or context_page)."""
        limit, start = _limit(limit, MAX_ENTRIES), _start(offset)
        _check_leaf(leaf)
        return _typed_ids(page(self._open(session), leaf, start, limit, redact))

    def _open(self, reference: str) -> Any:
        if len(reference) > MAX_REFERENCE:
            raise PituiError(
                f"session: at most {MAX_REFERENCE:,} characters (this one has "
                f"{len(reference):,}); name it by its id"
            )
        listed = self._scope("", "all").sessions
        if os.sep not in reference and not reference.endswith(".jsonl"):
            return Session(resolve_session(reference, listed))
        if "[REDACTED:" in reference and not os.path.exists(reference):
            raise PituiError("that path was redacted: name the session by its id")
        if os.path.realpath(reference) not in {os.path.realpath(s.path) for s in listed}:
            # only the sessions pitui lists: never another file, nor whether one exists
            raise PituiError(f"no session of pitui's stores at {one_line(reference)!r}")
        return Session(reference)


def _fill_page(values: Iterable[_Json]) -> list[_Json]:
    """The first values (made as asked for) whose JSON fits in a page of PAGE_CHARS
    characters, at least one: the rest is the next page's."""
    found: list[_Json] = []
    size = 0
    for value in values:
        weight = len(compact_json(value))
        if found and size + weight > PAGE_CHARS:
            break
        found.append(value)
        size += weight
    return found


def _limit(limit: int, most: int) -> int:
    if not 1 <= limit <= most:
        shown = str(limit) if -(10**12) < limit < 10**12 else "out of range"
        raise PituiError(f"limit must be 1 to {most} (got {shown})")
    return int(limit)


def _start(offset: int) -> int:
    if offset < 0:
        raise PituiError("offset must be 0 or more")
    return int(offset)


def _check_query(query: str, *, allow_empty: bool) -> None:
    """Refused as `pitui list` and `pitui grep` refuse it (too long, a bad filter), before
    any session is read."""
    if not allow_empty and not query.strip():
        raise PituiError("search_entries needs a query")
    refuse_bad_query(split_query(query).text)


def _check_leaf(leaf: str | None) -> None:
    if leaf is not None and len(leaf) > MAX_ENTRY_ID:
        raise PituiError(f"leaf: at most {MAX_ENTRY_ID:,} characters (this one has {len(leaf):,})")


def _says_nothing(value: Any) -> bool:
    return value is None or value is False or value == "" or value == []


_ZERO_DROPPED = frozenset({"totalTokens", "totalCost", "malformedLines", "entryCount"})


def _session_json(data: dict[str, Any], redactor: Redactor) -> Any:
    """A session's fields without those that say nothing (null, false, [], a zero total,
    the local store, one branch), strings typed, secrets redacted (in its paths too)."""
    first = data.get("firstMessage")
    if isinstance(first, str) and len(first) > SNIPPET_FIRST_MESSAGE:
        data["firstMessage"] = first[:SNIPPET_FIRST_MESSAGE] + "…"
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    out: dict[str, Any] = {}
    for key, value in data.items():
        if _says_nothing(value) or (key in _ZERO_DROPPED and value == 0):
            continue
        if (key, value) in (("store", "local"), ("branchCount", 1)):
            continue
        if key in ("path", "remotePath", "parentSessionPath", "cwd"):
            out[key] = redactor.path(_text(value), cwd)
        elif key in ("id", "name", "created", "modified", "firstMessage"):
            out[key] = redactor.text(_text(value)) if key != "id" else _text(value)
        else:
            out[key] = redactor.value(value)
    out.setdefault("cwd", "")
    out.setdefault("messageCount", 0)
    return out


def _hit_json(hit: Any, redactor: Redactor, cwds: dict[str, Any]) -> Any:
    data = hit.to_json()
    cwd = cwds.get(hit.path)
    out = {
        "sessionId": _text(data["sessionId"]),
        "path": redactor.path(data["path"], cwd if isinstance(cwd, str) else None),
        "id": _text(data["id"]),
        "role": data["role"],
    }
    if isinstance(data.get("timestamp"), str):
        out["timestamp"] = data["timestamp"]
    out.update(line=data["line"], snippet=hit.snippet)  # no lone surrogate: MCP's JSON is Unicode
    summary = hit.summary
    if summary is not None and summary.store != "local":  # as `search_sessions` marks them
        out["store"] = summary.store
        if summary.remote_path is not None:
            out["remotePath"] = redactor.path(summary.remote_path, summary.cwd)
    return out


def _change_json(change: FileChange, redactor: Redactor, cwds: dict[str, Any]) -> Any:
    cwd = cwds.get(change.session_path)
    out: dict[str, Any] = {
        "path": redactor.path(change.session_path, cwd if isinstance(cwd, str) else None),
        "sessionId": _text(change.session_id),
        "id": change.entry_id,
        "tool": change.tool,
    }
    if isinstance(change.timestamp, str):
        out["timestamp"] = change.timestamp
    out.update(
        added=change.added,
        removed=change.removed,
        branch=change.branch,
        file=redactor.text(change.path),
    )
    return out


def _typed_ids(page: dict[str, Any]) -> Any:
    """A page's raw JSON values (a hostile header's id, thinking level) typed as strings."""
    page["sessionId"] = _text(page.get("sessionId"))
    if "thinkingLevel" in page:
        page["thinkingLevel"] = _text(page["thinkingLevel"])
    if not isinstance(page.get("model", {}), dict):
        page["model"] = {"value": page["model"]}
    return page


def _text(value: Any) -> str:
    """A string field as it is; any other JSON value (a hostile header's id) as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
