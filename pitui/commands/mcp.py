"""`pitui mcp [--session-dir DIR]`: a read-only Model Context Protocol server on stdio.

Agents search and read Pi sessions through four tools; every answer is bounded (paged) and
has secrets redacted unless the call asks otherwise. The `mcp` package is imported here
only, so no other command pays for it.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from pitui.cli import _version
from pitui.commands.grep_hits import sessions_in_scope
from pitui.commands.listing import list_sessions, with_marks
from pitui.core.catalog.search.resolve import resolve_session
from pitui.core.entry_search.search import search_entries
from pitui.core.errors import PituiError
from pitui.core.export.pages import branch_page, context_page
from pitui.core.export.redactor import Redactor
from pitui.core.rows.safe_text import escape_json_c1, one_line
from pitui.core.session.session import Session

INSTRUCTIONS = (
    "Search and read the user's Pi coding-agent sessions (read-only). Find sessions with "
    "search_sessions or single messages with search_entries, then read one with "
    "read_session (a page of its branch as text, with entry ids) or get_context (the "
    "messages the model was sent). Secrets are redacted unless redact=false."
)
QUERY_HELP = (
    'Search text as in `pitui list`: words (all must match, case-insensitive), "an exact '
    'phrase", or re:REGEX; filters cwd:, name:, label:, model:, after:YYYY-MM-DD, before:...'
)
MAX_RESULTS = 100
SNIPPET_FIRST_MESSAGE = 300

Scope = Annotated[
    Literal["folder", "all"],
    Field(
        description="folder: the sessions of the folder the server runs in (Pi's project); "
        "all: every session"
    ),
]
SessionRef = Annotated[
    str, Field(description="A session file path, a session id, or an unambiguous id prefix")
]
Leaf = Annotated[
    str | None, Field(description="Entry id of the leaf (default: the session's active leaf)")
]
Offset = Annotated[
    int, Field(description="How many results, entries or messages to skip (for the next page)")
]
Redact = Annotated[
    bool, Field(description="Replace secrets (API keys, tokens, passwords) with [REDACTED:kind]")
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not use the catalog index")


def run(args: argparse.Namespace) -> int:
    try:
        import mcp.server.mcpserver  # noqa: F401  (deferred: see ARCHITECTURE.md)
    except ImportError:
        raise PituiError("pitui mcp needs the mcp package: pip install 'mcp>=2,<3'") from None
    build_server(args.session_dir, args.no_cache).run("stdio")
    return 0


def build_server(session_dir: str | None = None, no_cache: bool = False) -> Any:
    """The server and its four read-only tools."""
    from mcp.server.mcpserver import MCPServer  # deferred: see ARCHITECTURE.md
    from mcp.types import ToolAnnotations  # deferred: see ARCHITECTURE.md

    server = MCPServer("pitui", instructions=INSTRUCTIONS, version=_version())
    tools = _Tools(session_dir, no_cache)
    read_only = ToolAnnotations(readOnlyHint=True, idempotentHint=True, openWorldHint=False)
    for tool in (
        tools.search_sessions,
        tools.search_entries,
        tools.read_session,
        tools.get_context,
    ):
        server.add_tool(_reported(tool), name=tool.__name__, annotations=read_only)
    return server


def _reported(tool: Callable[..., str]) -> Callable[..., str]:
    """The tool with pitui's errors given to the agent as tool errors (one line each)."""
    from mcp.server.mcpserver.exceptions import ToolError  # deferred: see ARCHITECTURE.md

    @functools.wraps(tool)
    def call(*args: Any, **kwargs: Any) -> str:
        try:
            return tool(*args, **kwargs)
        except PituiError as error:
            raise ToolError(one_line(str(error))) from None

    return call


class _Tools:
    def __init__(self, session_dir: str | None, no_cache: bool) -> None:
        self.session_dir, self.no_cache = session_dir, no_cache

    def search_sessions(
        self,
        query: Annotated[str, Field(description=QUERY_HELP)] = "",
        scope: Scope = "folder",
        limit: Annotated[int, Field(description="At most this many sessions (1-100)")] = 20,
        offset: Offset = 0,
        redact: Redact = True,
    ) -> str:
        """Find Pi sessions, newest first (what `pitui list --json` answers): each with its
        path, id, cwd, name, times, message count and first message. An empty query lists
        them all."""
        result, marks, _ = list_sessions(
            query, every=scope == "all", session_dir=self.session_dir, no_cache=self.no_cache
        )
        if result.error:
            raise PituiError(result.error)
        start = _start(offset)
        rows = result.rows[start : start + _bounded(limit)]
        redactor = Redactor(redact)
        found = [_session_json(with_marks(r.summary.to_json(), r, marks), redactor) for r in rows]
        more = start + len(found) < len(result.rows)
        return _answer(found, offset, more, "sessions")

    def search_entries(
        self,
        query: Annotated[str, Field(description=QUERY_HELP)],
        scope: Scope = "folder",
        role: Annotated[
            Literal["user", "assistant", "tool"] | None,
            Field(description="Only entries of this role (tool: tool and bash output)"),
        ] = None,
        limit: Annotated[int, Field(description="At most this many entries (1-100)")] = 20,
        offset: Offset = 0,
        redact: Redact = True,
    ) -> str:
        """Find single entries (messages) across sessions, newest session first (what
        `pitui grep --json` answers): each with its session's path and id, the entry id,
        role, time, line and a one-line snippet. An entry matches on its own text: user and
        assistant text, thinking, tool calls and tool output. Read around a hit with
        read_session (session=sessionId, leaf=id)."""
        if not query.strip():
            raise PituiError("search_entries needs a query")
        scope_ = self._scope(query, scope)
        result = search_entries(
            scope_.sessions,
            scope_.text,
            role=role,
            limit=_bounded(limit),
            offset=_start(offset),
            redact=redact,
        )
        if result.error:
            raise PituiError(result.error)
        found = [hit.to_json() for hit in result.hits]
        return _answer(found, offset, result.more, "entries")

    def read_session(
        self,
        session: SessionRef,
        leaf: Leaf = None,
        offset: Annotated[
            int, Field(description="First entry to show, counted from the branch's root (0)")
        ] = 0,
        limit: Annotated[int, Field(description="At most this many entries (1-200)")] = 20,
        redact: Redact = True,
    ) -> str:
        """Read a session's branch (its active one, or the one ending at `leaf`) as text, a
        page of entries at a time, each headed by its number and entry id. The page says
        how to read on; pass its leaf back to stay on the same branch while the session
        grows."""
        page = branch_page(self._open(session), leaf, _start(offset), limit, redact)
        return page.text

    def get_context(
        self,
        session: SessionRef,
        leaf: Leaf = None,
        offset: Annotated[int, Field(description="First message to show")] = 0,
        limit: Annotated[int, Field(description="At most this many messages (1-200)")] = 20,
        redact: Redact = True,
    ) -> str:
        """Exactly what the model was sent from a leaf (`pitui context --json`): the model,
        thinking level and messages as Pi builds them (compaction summaries, omitted and
        replaced messages applied), a page of messages at a time (nextOffset reads on).
        Strings over 20,000 characters are cut (truncated: true)."""
        data = context_page(self._open(session), leaf, _start(offset), limit, redact)
        return _dumps(data)

    # -- helpers -----------------------------------------------------------------------------

    def _scope(self, query: str, scope: str) -> Any:
        return sessions_in_scope(
            query, every=scope == "all", session_dir=self.session_dir, no_cache=self.no_cache
        )

    def _open(self, reference: str) -> Any:
        found = None
        if os.sep not in reference and not reference.endswith(".jsonl"):
            found = self._scope("", "all").sessions
        return Session(resolve_session(reference, found or []))


def _bounded(limit: int) -> int:
    return max(1, min(int(limit), MAX_RESULTS))


def _start(offset: int) -> int:
    if offset < 0:
        raise PituiError("offset must be 0 or more")
    return int(offset)


def _session_json(data: dict[str, Any], redactor: Any) -> dict[str, Any]:
    first = data.get("firstMessage")
    if isinstance(first, str) and len(first) > SNIPPET_FIRST_MESSAGE:
        data["firstMessage"] = first[:SNIPPET_FIRST_MESSAGE] + "…"
    if not redactor.enabled:
        return data
    out = {key: redactor.value(value) for key, value in data.items()}
    out["path"] = redactor.path(data["path"], data["cwd"]) if data.get("cwd") else out["path"]
    return out


def _answer(found: list[dict[str, Any]], offset: int, more: bool, what: str) -> str:
    next_offset = offset + len(found) if more else None
    return _dumps({what: found, "offset": offset, "nextOffset": next_offset})


def _dumps(data: Any) -> str:
    return escape_json_c1(json.dumps(data, ensure_ascii=False, indent=1))
