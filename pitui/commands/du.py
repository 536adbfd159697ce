"""`pitui du [FILE | --all | --session-dir DIR] [--top N] [--json]`: what makes sessions large."""

from __future__ import annotations

import argparse
import os
import stat
import sys

from pitui.commands.support.json_output import print_json
from pitui.commands.support.scope_notice import say_left_out
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import one_line
from pitui.core.size_text import human_size
from pitui.core.usage.scope import scope_of
from pitui.core.usage.sizes import SessionSize, StoreSizes, session_size, store_sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="one session: its bytes by kind")
    parser.add_argument("--all", action="store_true", help="every session, not just this folder's")
    parser.add_argument("--session-dir", help="session directory (as pi --session-dir)")
    parser.add_argument("--top", type=int, default=10, help="how many largest (default 10)")
    parser.add_argument(
        "--json", action="store_true", help="print JSON (its shape: docs/COMMANDS.md, JSON output)"
    )


def run(args: argparse.Namespace) -> int:
    if args.top < 0:
        raise PituiError("--top wants a number >= 0")
    if args.file is not None:
        if args.all or args.session_dir:
            raise PituiError("give a FILE or a scope (--all, --session-dir), not both")
        result = session_size(_regular(args.file), args.top)
        if args.json:
            print_json(result.to_json())
        else:
            sys.stdout.write(render_session(result))
        return 0
    scope = scope_of(args.all, args.session_dir)
    for problem in scope.unreadable:
        print(f"pitui: cannot read {one_line(problem)}", file=sys.stderr)
    files, left_out = scope.started_here()
    say_left_out(left_out)
    sizes = store_sizes(files)
    if args.json:
        print_json(sizes.to_json(args.top))
    else:
        sys.stdout.write(render_store(sizes, args.top))
    return 0


def _regular(path: str) -> str:
    try:
        info = os.stat(path)
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise PituiError(f"cannot read {path}: not a regular file")
    return path


def render_session(result: SessionSize) -> str:
    lines = [
        f"{one_line(result.path)}: {human_size(result.size)}",
        "",
        f"{'KIND':<34} {'BYTES':>10}  %",
    ]
    for kind, size in result.kinds.most_common():
        share = 100 * size / result.size if result.size else 0
        lines.append(f"{one_line(kind):<34} {human_size(size):>10}  {share:.0f}%")
    if result.largest:
        lines += ["", f"{'LARGEST ENTRIES':<34} {'BYTES':>10}  LINE  {'KIND':<18}  STARTS WITH"]
        for e in result.largest:
            name, kind = one_line(e.id or "(no id)"), one_line(e.kind)
            line = f"{name:<34} {human_size(e.bytes):>10}  {e.line:>4}  {kind:<18}  {e.text}"
            lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def render_store(sizes: StoreSizes, top: int) -> str:
    n = len(sizes.sessions)
    lines = [f"{n} session{'s' * (n != 1)}, {human_size(sizes.total)}"]
    if top and sizes.sessions:
        lines += ["", f"{'BYTES':>10}  LARGEST SESSIONS"]
        lines += [f"{human_size(s):>10}  {one_line(p)}" for p, s in sizes.sessions[:top]]
    if sizes.folders:
        lines += ["", f"{'BYTES':>10}  {'SESSIONS':>8}  PROJECT FOLDER"]
        for folder, count, size in sizes.folders:
            lines.append(
                f"{human_size(size):>10}  {count:>8}  {one_line(os.path.basename(folder))}"
            )
    if sizes.others:
        lines += ["", f"{'BYTES':>10}  NOT SESSIONS (no session header: Pi lists none of them)"]
        lines += [f"{human_size(s):>10}  {one_line(p)}" for p, s in sizes.others]
    return "\n".join(lines) + "\n"
