"""`pitui export FILE [--leaf ID] [--format md|html|jsonl] [--context] [--redact] [-o PATH]`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from pitui.commands.support.progress import progress_on_stderr
from pitui.core.errors import PituiError
from pitui.core.export.destination import destination, proposed_name, write_result
from pitui.core.export.export import ExportResult, export_session
from pitui.core.export.options import DEFAULT_MAX_TOOL_LINES, EXTENSIONS, FORMATS, ExportOptions
from pitui.core.rows.safe_text import inert_path
from pitui.core.session.session import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("--leaf", help="last entry of the branch (default: the session's leaf)")
    parser.add_argument("--format", choices=FORMATS, default="md", help="default: md")
    parser.add_argument(
        "--context", action="store_true", help="the exact LLM context of the leaf, not the branch"
    )
    parser.add_argument("--redact", action="store_true", help="replace secrets by [REDACTED:kind]")
    parser.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="write to PATH (a folder: a free name is chosen in it)",
    )
    parser.add_argument("--force", action="store_true", help="replace an existing output file")
    parser.add_argument(
        "--max-tool-lines",
        type=int,
        default=DEFAULT_MAX_TOOL_LINES,
        metavar="N",
        help=f"cut tool output after N lines (0: never; default {DEFAULT_MAX_TOOL_LINES})",
    )


def run(args: argparse.Namespace) -> int:
    if args.max_tool_lines < 0:
        raise PituiError("--max-tool-lines must be 0 or more")
    session = Session(args.file)
    options = ExportOptions(args.format, args.context, args.redact, args.max_tool_lines)
    streamed = args.output is None
    with progress_on_stderr(
        "exporting", quiet=streamed and sys.stdout.isatty(), percent=True
    ) as progress:
        result = export_session(session, args.leaf, options, progress)
        if streamed:
            _write_stdout(result.parts)
        else:
            name = proposed_name(result.name, EXTENSIONS[args.format], args.context)
            path, chosen = destination(args.output, name)
            path = write_result(
                path, result, force=args.force, source=session.path, numbered=chosen
            )
    if not streamed:
        print(f"wrote {inert_path(str(path))}{_parts_note(result, path)}", file=sys.stderr)
    elif result.paged is not None:
        print(
            "pitui: a page this large opens slowly in a browser; "
            "with -o PATH it is written as pages that open in seconds",
            file=sys.stderr,
        )
    if args.redact:
        print(redaction_report(result.redacted), file=sys.stderr)
    return 0


def _parts_note(result: ExportResult, path: Path) -> str:
    if result.paged is None:
        return ""
    folder = path.with_name(result.paged.folder_name(path.name))
    return f" and its {len(result.paged.parts)} parts in {inert_path(str(folder))}/"


def _write_stdout(parts: Iterable[bytes]) -> None:
    """The UTF-8 parts to stdout's bytes (decoded where stdout has none, e.g. a StringIO)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.writelines(part.decode() for part in parts)
    else:
        buffer.writelines(parts)
        buffer.flush()


def redaction_report(counts: dict[str, int]) -> str:
    if not counts:
        return "redacted: nothing"
    parts = [f"{kind} {count}" for kind, count in sorted(counts.items())]
    return f"redacted {sum(counts.values())}: " + ", ".join(parts)
