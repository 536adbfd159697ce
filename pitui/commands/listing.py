"""`pitui list`'s listing, computed (its cached answer is `list`'s, given before this module
is imported), and what `pitui grep` and `pitui mcp` share of it: the catalog opened on the
stores a query reads, the scan's problems, pins and tags, JSON as Pi writes it."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from pitui.commands.support.answer_cache import AnswerCache, Dependencies
from pitui.commands.support.answer_inputs import every_folder_dependencies, scope_dependencies
from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.scope_notice import left_out_of_catalog
from pitui.commands.support.store_options import store_asked
from pitui.core.catalog.catalog import Catalog, CatalogRow, ScanReport, SearchResult
from pitui.core.catalog.lossless_json import storable
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.scan.tool_pass import Progress
from pitui.core.catalog.search.query import parse_query, split_store
from pitui.core.errors import PituiError, UsageError
from pitui.core.format.migration import NEWER_FORMAT, NEWER_HARNESS
from pitui.core.format.timestamps import local_minutes
from pitui.core.live.open_by import OpenSessions, open_sessions
from pitui.core.remotes.config import remotes_file
from pitui.core.remotes.stores import mirrors_of
from pitui.core.rows.safe_text import escape_json_c1, one_line
from pitui.core.user_dirs import config_dir
from pitui.core.userdata.arrange import apply_marks, split_query
from pitui.core.userdata.store import FILE_NAME, Marks, UserData, data_dir

TITLE_WIDTH = 60


def print_listing(args: argparse.Namespace, cache: AnswerCache | None) -> int:
    """Compute and print the listing, and keep it in `cache` when clean."""
    cwd = os.getcwd()
    default = store_asked(args)
    store, _ = split_store(split_query(args.query).text, default)
    archive = discovery.archive_root() if store in ("archive", "all") else None
    depends = _dependencies(args.session_dir, cwd, archive, store, args.all) if cache else None

    sort = args.sort or ("recent" if args.json else "threaded")
    with progress_on_stderr("indexing sessions", quiet=args.json) as progress:
        result, marks, problems = list_sessions(
            args.query,
            every=args.all or store not in ("local", "archive"),
            session_dir=args.session_dir,
            sort=sort,
            named=args.named,
            no_cache=args.no_cache,
            store=default,
            progress=progress,
        )
    for problem in problems:
        print(f"pitui: {problem}", file=sys.stderr)
    if args.json:
        data = [with_marks(row.summary.to_json(), row, marks) for row in result.rows]
        found = cache.open_sessions() if cache else open_sessions(exclude=os.getpid())
        if depends is not None:
            for folder in _held_folders(args.session_dir, cwd, archive, store):
                depends.holders(folder, found)
        with_holders(data, found)
        out = to_json(data) + "\n"
    else:
        out = render(result, show_cwd=args.all or store not in ("local", "archive"), marks=marks)
    sys.stdout.write(out)
    if cache is not None and depends is not None and not problems:
        cache.put(depends, out)  # only a clean answer: a warning is said every time
    return 0


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
) -> tuple[SearchResult, Marks, list[str]]:
    """The sessions a query finds, this folder's or `every` one (`pitui list`'s answer),
    the pins and tags, and the problems met (one line each, to say before the listing).
    `store`: "archive" (or `archived`), a remote's name, or "all" (as `in:archive`,
    `host:NAME`, `in:all`, which a query may say itself); `progress(done, total)`: the
    scan's, in files, then the search's reading of tool output, in sessions; `catalogs`: a
    long-lived caller's open catalogs (else one is opened for this answer)."""
    cwd = os.getcwd()
    mark_query = split_query(query)  # pin: and tag:NAME are pitui's, not the catalog's
    refuse_bad_query(mark_query.text)
    problems: list[str] = []
    marks = load_marks(problems)
    store, _ = split_store(mark_query.text, "archive" if archived else store)
    with catalog_for(catalogs, store, session_dir, no_cache, problems) as catalog:
        # never waits for the tool-output and trigram indexes: a search indexes the tool
        # output of the sessions nothing else matched (the app's background pass, the rest)
        report = catalog.scan(progress, tools="later")
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


def open_catalog(
    store: str, session_dir: str | None, no_cache: bool, problems: list[str]
) -> Catalog:
    """The catalog of Pi's sessions (and `session_dir`'s), with the archive and the remotes'
    mirrors `store` reads ("archive", a remote's name, "all"); a stale mirror said in
    `problems`."""
    return _catalog(store, session_dir, no_cache, mirrors_of(store, problems))


def _catalog(store: str, session_dir: str | None, no_cache: bool, mirrors: list[Any]) -> Catalog:
    return Catalog(
        discovery.sessions_root(),
        custom_dir=discovery.custom_session_dir(session_dir, os.getcwd()),
        no_cache=no_cache,
        archive_dir=discovery.archive_root() if store in ("archive", "all") else None,
        mirrors=mirrors,
    )


class KeptCatalogs:
    """The catalogs a long-lived caller (the MCP server) keeps open between its answers, one
    per store, folder and mirrors: each answer then scans only what changed since the last
    instead of loading every session's summary again (10,000 sessions: 0.36-0.42 s a search
    before). Thread-safe, as a `Catalog` is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[Any, ...], Catalog] = {}

    @contextlib.contextmanager
    def open(
        self, store: str, session_dir: str | None, no_cache: bool, problems: list[str]
    ) -> Iterator[Catalog]:
        mirrors = mirrors_of(store, problems)
        folders = tuple(sorted(str(m.folder) for m in mirrors))
        key = (store, session_dir, os.getcwd(), no_cache, folders)
        with self._lock:
            catalog = self._kept.get(key)
            if catalog is None:
                catalog = self._kept[key] = _catalog(store, session_dir, no_cache, mirrors)
        yield catalog

    def close(self) -> None:
        with self._lock:
            kept, self._kept = list(self._kept.values()), {}
        for catalog in kept:
            catalog.close()


def catalog_for(
    catalogs: KeptCatalogs | None,
    store: str,
    session_dir: str | None,
    no_cache: bool,
    problems: list[str],
) -> contextlib.AbstractContextManager[Catalog]:
    """A kept catalog (closed by its keeper), else one opened for this answer (closed after)."""
    if catalogs is not None:
        return catalogs.open(store, session_dir, no_cache, problems)
    return open_catalog(store, session_dir, no_cache, problems)


def scan_problems(report: ScanReport, notice: str | None) -> list[str]:
    """What a catalog scan could not read or skipped, one line each."""
    problems = [one_line(notice)] if notice else []
    problems += [f"cannot read {one_line(problem)}" for problem in report.unreadable]
    problems += [f"skipped {one_line(problem)}" for problem in report.skipped]
    problems += [one_line(problem) for problem in report.problems]
    problems += [f"{one_line(path)}: {NEWER_HARNESS}" for path in report.newer_formats]
    skipped = report.skipped_not_sessions
    if skipped:
        what = "file that is not a session" if skipped == 1 else "files that are not sessions"
        problems.append(f"skipped {skipped} .jsonl {what}")
    return problems


def _dependencies(
    session_dir: str | None, cwd: str, archive: Path | None, store: str, every: bool
) -> Dependencies:
    """What a listing reads: the catalog scans every session folder of its root, whatever
    the cwd, and of the archive when it lists it; pins and tags mark the rows; all sessions
    hold the remotes' mirrors once a remote is added."""
    depends = scope_dependencies(True, session_dir, cwd)
    marks = os.path.join(data_dir(), FILE_NAME)
    for suffix in ("", "-journal", "-wal"):  # pins and tags, and the file's journals
        depends.file(marks + suffix)
    if archive is not None:
        depends.file(str(config_dir() / "settings.json"))  # it may name the archive
        every_folder_dependencies(depends, str(archive))
    if every or store not in ("local", "archive"):
        depends.file(str(remotes_file()))
    if store not in ("local", "archive"):
        for mirror in mirrors_of(store, []):
            every_folder_dependencies(depends, str(mirror.folder))
    return depends


def to_json(data: list[dict[str, Any]]) -> str:
    """A JSON array as JSON.stringify writes it (a lone surrogate as `\\udXXX`), with DEL
    and C1 controls escaped too."""
    try:
        dumped = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except (TypeError, orjson.JSONEncodeError):  # lone surrogates: the standard library
        dumped = json.dumps(data, ensure_ascii=False, indent=2)
        dumped = re.sub("[\\ud800-\\udfff]", lambda m: f"\\u{ord(m.group()):04x}", dumped)
    return escape_json_c1(dumped)


def render(result: SearchResult, show_cwd: bool, marks: Marks | None = None) -> str:
    """A table: modified time, messages, guide + name or first message, (cwd)."""
    header = f"{'MODIFIED':<16}  {'MSGS':>5}  {'SESSION':<{TITLE_WIDTH}}"
    lines = [header + ("  CWD" if show_cwd else "")]
    lines += [_row(row, show_cwd, marks or Marks()) for row in result.rows]
    if not result.rows:
        lines.append("(no sessions)")
    return "\n".join(lines) + "\n"


def _row(row: CatalogRow, show_cwd: bool, marks: Marks) -> str:
    s = row.summary
    when = _local(s.modified_ms)
    title = _marked(storable(one_line(s.name or s.first_message)), s.id, marks)
    title = f"({NEWER_FORMAT}) {title}" if s.newer_format else title
    title = f"(archived) {title}" if s.store == "archive" else title
    title = f"({one_line(s.store)}) {title}" if s.store not in ("local", "archive") else title
    title = _clip(row.guide() + title, TITLE_WIDTH)
    line = f"{when:<16}  {s.message_count:>5}  {title:<{TITLE_WIDTH}}"
    return (line + "  " + storable(one_line(s.cwd))) if show_cwd else line.rstrip()


def _local(ms: int | None) -> str:
    return "?" if ms is None else local_minutes(ms)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def refuse_bad_query(text: str) -> None:
    """A filter that cannot be applied (`after:` a day that does not exist) or a query too long
    to search stops the command before any file is read. A broken `re:` lists nothing, as in
    Pi."""
    query = parse_query(text)
    if (query.bad_filter or query.too_long) and query.error:
        raise UsageError(query.error)


def load_marks(problems: list[str] | None = None) -> Marks:
    """Pins and tags; a broken pins-and-tags file is reported (printed, or added to
    `problems`), never fatal for listing."""
    try:
        return UserData().marks()
    except PituiError as error:
        if problems is None:
            print(f"pitui: {one_line(str(error))}", file=sys.stderr)
        else:
            problems.append(one_line(str(error)))
        return Marks()


def _marked(title: str, session_id: object, marks: Marks) -> str:
    """`* ` before a pinned session's title, then its tags in brackets (kept when clipped)."""
    tags = marks.tags_of(session_id)
    title = f"[{one_line(' '.join(tags))}] {title}" if tags else title
    return f"* {title}" if marks.is_pinned(session_id) else title


def with_marks(data: dict[str, object], row: CatalogRow, marks: Marks) -> dict[str, object]:
    data["pinned"] = marks.is_pinned(row.summary.id)
    data["tags"] = list(marks.tags_of(row.summary.id))
    return data


def with_holders(data: list[dict[str, Any]], found: OpenSessions | None) -> None:
    """Each session's `openBy`: the processes (other than pitui's own) holding it open, as
    `found` saw them (empty where /proc cannot tell)."""
    for item in data:
        held = found.holders(item["path"]) if found is not None else []
        item["openBy"] = [h.to_json() for h in held]


def _held_folders(session_dir: str | None, cwd: str, archive: Path | None, store: str) -> list[str]:
    """The folders whose sessions' holders `openBy` says (the kept answer checks them)."""
    root = discovery.custom_session_dir(session_dir, cwd) or discovery.sessions_root()
    folders = [str(root)] + ([str(archive)] if archive is not None else [])
    if store not in ("local", "archive"):
        folders += [str(mirror.folder) for mirror in mirrors_of(store, [])]
    return folders
