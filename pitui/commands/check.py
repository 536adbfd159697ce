"""`pitui check [FILE... | --all | --session-dir DIR] [--no-cache] [--json]`: every departure
from Pi's format, per session; exit status 1 when there is any. A headerless file that
continues an archived, trashed or moved session (`core/changes/continued.py`) says so, and the
command that joins it back. What each file holds is remembered until it changes
(`support/check_cache.py`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pitui.commands.support.check_cache import CheckCache
from pitui.commands.support.json_output import print_json
from pitui.commands.support.progress import Progress, progress_on_stderr
from pitui.commands.support.scope_notice import say_left_out
from pitui.core.catalog.scan import discovery
from pitui.core.changes.continued import Continued, find_continued
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import inert_path, one_line
from pitui.core.session.check import NOT_A_SESSION, SessionCheck
from pitui.core.usage.scope import Scope, scope_of, scope_of_paths
from pitui.core.user_dirs import cache_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE", help="session .jsonl files")
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--no-cache", action="store_true", help="do not keep the check cache")
    parser.add_argument("--json", action="store_true", help="print [{path, problems}] as JSON")


def run(args: argparse.Namespace) -> int:
    scope = scope_of_paths(args.files) if args.files else scope_of(args.all, args.session_dir)
    for problem in scope.unreadable:
        print(f"pitui: cannot read {one_line(problem)}", file=sys.stderr)
    cache = CheckCache(None if args.no_cache else cache_dir())
    with progress_on_stderr("checking sessions", quiet=args.json) as progress:
        checked = _checked(scope, cache, progress)
    cache.close()
    if cache.notice:
        print(f"pitui: {one_line(cache.notice)}", file=sys.stderr)
    continued = _continued(checked)
    if args.json:
        data = [_to_json(path, c, continued.get(path)) for path, c in checked]
        print_json(data)
    else:
        sys.stdout.write(render(checked, continued))
    return 1 if any(c.problems for _, c in checked) else 0


def _checked(
    scope: Scope, cache: CheckCache, progress: Progress | None = None
) -> list[tuple[str, SessionCheck]]:
    """Each file of the scope checked (a shared session dir's other projects left out, and
    said); `progress(done, total)` in files."""
    found = []
    for done, path in enumerate(scope.files, 1):
        found.append((path, cache.check(path)))
        if progress is not None:
            progress(done, len(scope.files))
    kept = [(path, c) for path, c in found if c.cwd is None or scope.accepts(c.cwd)]
    say_left_out(len(found) - len(kept))
    return kept


def _is_session(check: SessionCheck) -> bool:
    """Whether the file is a session, by Pi's rule (as `pitui list` and `pitui tree` read it)."""
    return not any(p.problem.startswith(NOT_A_SESSION) for p in check.problems)


def _continued(checked: list[tuple[str, SessionCheck]]) -> dict[str, Continued]:
    """The files without a header that continue a session pitui took away."""
    root = discovery.sessions_root()
    try:
        archive: Path | None = discovery.archive_root()
    except PituiError:
        archive = None
    found = {}
    for path, c in checked:
        if c.cwd is None and c.problems:
            continued = find_continued(Path(path), root, archive)
            if continued is not None:
                found[path] = continued
    return found


def _to_json(path: str, c: SessionCheck, continued: Continued | None) -> dict[str, object]:
    item: dict[str, object] = {"path": path, "problems": [p.to_json() for p in c.problems]}
    if continued is not None:
        item["continues"] = {
            "path": str(continued.continuation.session),
            "store": continued.store,
            "fix": continued.fix,
        }
    return item


def render(
    checked: list[tuple[str, SessionCheck]], continued: dict[str, Continued] | None = None
) -> str:
    faulty = [(path, c) for path, c in checked if c.problems and _is_session(c)]
    count = sum(1 for _, c in checked if _is_session(c))
    sessions = f"{count} session{'s' * (count != 1)}"
    others = len(checked) - count
    not_sessions = ""
    if others:
        said = "1 file is not a session" if others == 1 else f"{others} files are not sessions"
        not_sessions = f"; {said} (below)"
    if not faulty:
        return f"{sessions} checked: nothing departs from Pi's format{not_sessions}.\n" + "".join(
            _file_problems(path, c, continued) for path, c in checked if c.problems
        )
    departures = sum(len(c.problems) for _, c in faulty)
    lines = [
        f"{departures} departure{'s' * (departures != 1)} from Pi's format in {len(faulty)} of "
        f"{sessions}{not_sessions}"
    ]
    listed = "".join(_file_problems(path, c, continued) for path, c in checked if c.problems)
    return "\n".join(lines) + "\n" + listed


def _file_problems(
    path: str, check: SessionCheck, continued: dict[str, Continued] | None = None
) -> str:
    lines = ["", inert_path(path)]
    if continued and path in continued:
        lines.append(f"  {one_line(continued[path].describe())}")
    lines.append(f"  {'LINE':>6}  {'ENTRY':<10}  PROBLEM")
    for p in check.problems:
        entry = one_line(p.id) if p.id is not None else "-"
        lines.append(f"  {p.line or '-':>6}  {entry:<10}  {one_line(p.problem)}")
    return "\n".join(lines) + "\n"
