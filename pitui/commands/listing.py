"""`pitui list`'s listing, computed (its cached answer is `list`'s, given before this module
is imported): the sessions `core.listing` finds, printed as a table or as JSON."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from pitui.commands.support.answer_cache import AnswerCache, Dependencies
from pitui.commands.support.answer_inputs import every_folder_dependencies, scope_dependencies
from pitui.commands.support.json_output import to_json
from pitui.commands.support.progress import progress_on_stderr
from pitui.commands.support.store_options import store_asked
from pitui.core.catalog.catalog import CatalogRow, SearchResult
from pitui.core.catalog.lossless_json import storable
from pitui.core.catalog.scan import discovery
from pitui.core.catalog.search.query import split_store
from pitui.core.format.migration import NEWER_FORMAT
from pitui.core.format.timestamps import local_minutes
from pitui.core.listing.sessions import list_sessions, with_marks
from pitui.core.live.open_by import OpenSessions, open_sessions
from pitui.core.remotes.config import remotes_file
from pitui.core.remotes.stores import mirrors_of
from pitui.core.rows.safe_text import one_line
from pitui.core.user_dirs import config_dir
from pitui.core.userdata.arrange import split_query
from pitui.core.userdata.store import FILE_NAME, Marks, data_dir

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


def _marked(title: str, session_id: object, marks: Marks) -> str:
    """`* ` before a pinned session's title, then its tags in brackets (kept when clipped)."""
    tags = marks.tags_of(session_id)
    title = f"[{one_line(' '.join(tags))}] {title}" if tags else title
    return f"* {title}" if marks.is_pinned(session_id) else title


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
