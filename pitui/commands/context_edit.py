"""`pitui context-edit FILE ENTRY_ID --omit | --replace TEXT | --replace-file PATH | --restore`:
change what the model will be sent of one message, as Pi's appendContextEdit."""

from __future__ import annotations

import argparse
import os

from pitui.commands.support.command_errors import writing_from_command
from pitui.commands.support.utf8_arguments import utf8_argument
from pitui.core.changes import context_edit
from pitui.core.errors import PituiError
from pitui.core.regular_file import open_regular
from pitui.core.rows.safe_text import one_line

MAX_REPLACEMENT_BYTES = 16 * 1024 * 1024

# A session of a remote's mirror is written there, by pitui on the remote, with the same
# arguments, before they are parsed (`commands/support/mirror_writes`).
FORWARDED_FOR_MIRRORS = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("entry_id", help="id of the message to edit")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--omit", action="store_true", help="leave the message out of the context")
    what.add_argument("--replace", metavar="TEXT", help="send TEXT instead of its content")
    what.add_argument("--replace-file", metavar="PATH", help="send PATH's text instead")
    what.add_argument(
        "--restore", action="store_true", help="undo earlier edits (send its original content)"
    )
    parser.add_argument(
        "--force", action="store_true", help="write even if another process seems to be writing"
    )


def run(args: argparse.Namespace) -> int:
    utf8_argument(args.replace, "--replace text")
    with writing_from_command():  # a refusal names --force, as label's and name's do
        if args.omit:
            result = context_edit.omit(args.file, args.entry_id, force=args.force)
            done = "omitted"
        elif args.restore:
            result = context_edit.restore(args.file, args.entry_id, force=args.force)
            done = "restored"
        else:
            text = args.replace if args.replace is not None else read_text(args.replace_file)
            result = context_edit.replace(args.file, args.entry_id, text, force=args.force)
            done = "replaced"
    target = one_line(args.entry_id)
    print(f"{done} {target} in the model's context (entry {result.entry_id})")
    if not result.in_context:
        print(
            f"note: {target} is summarized by a compaction: "
            "the model does not see it, so the edit changes nothing it is sent"
        )
    return 0


def read_text(path: str) -> str:
    """A regular file's text (UTF-8), or a one-line error."""
    try:
        fd = open_regular(path)  # a FIFO or device is refused, never opened
        with os.fdopen(fd, "rb") as handle:
            if os.fstat(fd).st_size > MAX_REPLACEMENT_BYTES:
                raise PituiError(f"{path} is larger than 16 MB")
            data = handle.read(MAX_REPLACEMENT_BYTES + 1)
    except OSError as error:
        raise PituiError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PituiError(f"{path} is not UTF-8 text") from None
