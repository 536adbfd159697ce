"""The sessions a query finds: `pitui list`'s answer (`list_sessions`: searched, ordered,
pins and tags applied) and the scope `pitui grep`, `log`, `blame` and the MCP server read
entry by entry (`sessions_in_scope`), each with the problems met, one line each, for the
caller to say before its answer."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pitui.core.catalog.catalog import CatalogRow, ScanReport, SearchResult
from pitui.core.catalog.scan.tool_pass import Progress
from pitui.core.catalog.search.query import parse_query, split_store
from pitui.core.catalog.summary import SessionSummary
from pitui.core.errors import PituiError, UsageError
from pitui.core.format.migration import NEWER_HARNESS
from pitui.core.listing.catalogs import KeptCatalogs, catalog_for
from pitui.core.listing.left_out import left_out_of_catalog
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.userdata.arrange import apply_marks, matches, split_query
from pitui.core.userdata.store import Marks, UserData


def list_sessions(
    query: str,
    *,
    every: bool = False,
    session_dir: str | None = None,
    sort: str = "recent",
    named: bool = False,
    no_cache: bool = False,
    archived: bool = False,
    store: str = "local",
    progress: Progress | None = None,
    catalogs: KeptCatalogs | None = None,
    stats: Mapping[str, os.stat_result] | None = None,
) -> tuple[SearchResult, Marks, list[str]]:
    """The sessions a query finds, this folder's or `every` one (`pitui list`'s answer),
    the pins and tags, and the problems met (one line each, to say before the listing).
    `store`: "archive" (or `archived`), a remote's name, or "all" (as `in:archive`,
    `host:NAME`, `in:all`, which a query may say itself); `progress(done, total)`: the
    scan's, in files, then the search's reading of tool output, in sessions; `catalogs`: a
    long-lived caller's open catalogs (else one is opened for this answer); `stats`: the
    session files' stats as the caller took them (see `Catalog.scan`)."""
    cwd = os.getcwd()
    mark_query = split_query(query)  # pin: and tag:NAME are pitui's, not the catalog's
    refuse_bad_query(mark_query.text)
    problems: list[str] = []
    marks = load_marks(problems)
    store, _ = split_store(mark_query.text, "archive" if archived else store)
    with catalog_for(catalogs, store, session_dir, no_cache, problems) as catalog:
        # never waits for the tool-output and trigram indexes: a search indexes the tool
        # output of the sessions nothing else matched (the app's background pass, the rest)
        report = catalog.scan(progress, tools="later", stats=stats)
        notice = catalog.index.notice
        result = catalog.search(
            mark_query.text,
            cwd=None if every else cwd,
            sort=sort,
            named_only=named,
            store=store,
            index_tools=True,
            tools_progress=progress,
        )
        left_out = None if every else left_out_of_catalog(catalog, cwd, store, session_dir)
    result.rows = apply_marks(result.rows, marks, mark_query)
    problems += scan_problems(report, notice)
    problems += [left_out] if left_out else []  # said every time: never kept with the answer
    if result.error:
        problems.append(one_line(result.error))
    return result, marks, problems


@dataclass
class SessionsInScope:
    sessions: list[SessionSummary]
    text: str  # the query without pitui's `pin:` and `tag:` tokens
    problems: list[str] = field(default_factory=list)


def sessions_in_scope(
    query: str,
    *,
    every: bool = False,
    session_dir: str | None = None,
    no_cache: bool = False,
    store: str = "local",
    catalogs: KeptCatalogs | None = None,
    keep: Callable[[SessionSummary], bool] | None = None,
    writing: tuple[str, ...] | None = None,
    progress: Progress | None = None,
) -> SessionsInScope:
    """The sessions `pitui list` would search (this folder's, or every one; of `store`, or of
    the one a query's `in:` / `host:` token names), newest first, those that a query's
    `pin:` / `tag:NAME` tokens leave out removed, and with a `file:PATH` token only those
    that wrote PATH (as `pitui list` selects them); `keep`: only those it accepts. `writing`:
    of these, only those that may have written one of these paths (absolute, resolved) or
    anything under them, as the index tells (`Catalog.writers`, which indexes their tool
    output first); without an index (`no_cache`) every one, for the caller to read.
    `progress(done, total)`: the scan's, in files, then that indexing's, in sessions."""
    cwd = os.getcwd()
    mark_query = split_query(query)
    refuse_bad_query(mark_query.text)  # before any file is read
    store, text = split_store(mark_query.text, store)
    problems: list[str] = []
    with catalog_for(catalogs, store, session_dir, no_cache, problems) as catalog:
        # entry search reads the files, not the indexes
        report = catalog.scan(progress, tools="later")
        problems += scan_problems(report, catalog.index.notice)
        sessions = catalog.sessions(None if every else cwd, store=store)
        if keep is not None:
            sessions = [s for s in sessions if keep(s)]
        if writing is not None and not no_cache:
            sessions = catalog.writers(sessions, writing, progress)
        files = parse_query(text).files  # `file:PATH`, as `pitui list` reads it
        if files:
            catalog.tools.index_of({s.path for s in sessions}, progress)
            for value in files:
                written = catalog.writing_to(value, cwd)
                sessions = [s for s in sessions if s.path in written]
        left_out = None if every else left_out_of_catalog(catalog, cwd, store, session_dir)
    problems += [left_out] if left_out else []
    if mark_query.active:
        marks = load_marks(problems)
        sessions = [s for s in sessions if matches(s, marks, mark_query)]
    return SessionsInScope(sessions, text, problems)


def store_of(query: str, default: str) -> str:
    """The store a query reads: the one its `in:` / `host:` token names, else `default`."""
    return split_store(split_query(query).text, default)[0]


def refuse_bad_query(text: str) -> None:
    """A filter that cannot be applied (`after:` a day that does not exist) or a query too long
    to search stops the command before any file is read. A broken `re:` lists nothing, as in
    Pi."""
    query = parse_query(text)
    if (query.bad_filter or query.too_long) and query.error:
        raise UsageError(query.error)


def load_marks(problems: list[str]) -> Marks:
    """Pins and tags; a broken pins-and-tags file is added to `problems`, never fatal for
    listing."""
    try:
        return UserData().marks()
    except PituiError as error:
        problems.append(one_line(str(error)))
        return Marks()


def scan_problems(report: ScanReport, notice: str | None) -> list[str]:
    """What a catalog scan could not read or skipped, one line each."""
    problems = [one_line(notice)] if notice else []
    problems += [f"cannot read {one_line(problem)}" for problem in report.unreadable]
    problems += [f"skipped {one_line(problem)}" for problem in report.skipped]
    problems += [one_line(problem) for problem in report.problems]
    problems += [f"{inert_path(path)}: {NEWER_HARNESS}" for path in report.newer_formats]
    skipped = report.skipped_not_sessions
    if skipped:
        what = "file that is not a session" if skipped == 1 else "files that are not sessions"
        named = ", ".join(inert_path(path) for path in report.not_sessions)
        more = skipped - len(report.not_sessions)
        named += f" and {more:,} more" if more > 0 else ""
        problems.append(
            f"skipped {skipped} .jsonl {what}: {named}"
            if named
            else f"skipped {skipped} .jsonl {what}"
        )
    return problems


def with_marks(data: dict[str, object], row: CatalogRow, marks: Marks) -> dict[str, object]:
    """A session's JSON (`pitui list --json`, the MCP server's) with its pin and tags."""
    data["pinned"] = marks.is_pinned(row.summary.id)
    data["tags"] = list(marks.tags_of(row.summary.id))
    return data
