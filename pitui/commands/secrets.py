"""`pitui secrets [--all | --session-dir DIR] [--no-cache] [--json]`: the sessions, entries and
kinds of credentials found in them (the export's detector), values masked, in the paths too."""

from __future__ import annotations

import argparse
import os
import sys

from pitui.commands.support.json_output import print_json
from pitui.commands.support.progress import Progress, progress_on_stderr
from pitui.commands.support.scope_notice import say_left_out
from pitui.core.export.redactor import Redactor
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.secrets.found_cache import SecretsCache
from pitui.core.secrets.scan import SessionSecrets
from pitui.core.usage.scope import scope_of
from pitui.core.user_dirs import cache_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not keep the secrets cache")
    parser.add_argument(
        "--json", action="store_true", help="print JSON (its shape: docs/COMMANDS.md, JSON output)"
    )


def run(args: argparse.Namespace) -> int:
    scope = scope_of(args.all, args.session_dir)
    for problem in scope.unreadable:
        print(f"pitui: cannot read {one_line(problem)}", file=sys.stderr)
    cache = SecretsCache(None if args.no_cache else cache_dir())
    with progress_on_stderr("looking for credentials", quiet=args.json) as progress:
        found = find_in(scope.files, cache, progress)
    cache.close()
    if cache.notice:
        print(f"pitui: {one_line(cache.notice)}", file=sys.stderr)
    kept = [s for s in found if scope.accepts(s.cwd)]
    say_left_out(len(found) - len(kept), " with credentials")
    found = kept
    if args.json:
        paths = Redactor(True)
        data = {"sessions": [{**s.to_json(), "path": paths.path(s.path, s.cwd)} for s in found]}
        print_json(data)
    else:
        sys.stdout.write(render(found))
    return 0


def find_in(
    files: list[str], cache: SecretsCache, progress: Progress | None = None
) -> list[SessionSecrets]:
    """Sessions holding credentials; a file the cache knows to hold none is not read.
    `progress(done, total)` counts the files."""
    found: list[SessionSecrets] = []
    for done, path in enumerate(files):
        if progress is not None:
            progress(done, len(files))
        try:
            st = os.stat(path)
        except OSError:
            continue
        known = cache.cached(path, st)
        if known is not None and not known:
            continue
        result = cache.scan(path)
        if result is not None and result.hits:
            found.append(result)
    return found


def render(found: list[SessionSecrets]) -> str:
    if not found:
        return "No credentials found.\n"
    count = sum(len(s.hits) for s in found)
    sessions = f"{len(found)} session{'s' * (len(found) != 1)}"
    lines = [f"{count} credential{'s' * (count != 1)} in {sessions} (values masked)"]
    paths = Redactor(True)  # a secret in the project folder's name is masked there too
    for session in found:
        lines += ["", inert_path(paths.path(session.path, session.cwd))]
        entries = [one_line(hit.entry_id) if hit.entry_id else "(no id)" for hit in session.hits]
        width = max(10, *map(len, entries))  # line 1's entry is the session, a whole UUID
        lines.append(f"  {'LINE':>6}  {'ENTRY':<{width}}  {'KIND':<24}  VALUE")
        for hit, entry in zip(session.hits, entries, strict=True):
            lines.append(
                f"  {hit.line:>6}  {entry:<{width}}  {hit.kind:<24}  {one_line(hit.masked)}"
            )
    return "\n".join(lines) + "\n"
