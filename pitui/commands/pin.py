"""`pitui pin FILE...`: keep sessions at the top of every list (pitui's data, not the file's)."""

from __future__ import annotations

import argparse

from pitui.commands.support.marking import add_file_arguments, set_pinned


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return set_pinned(args.files, pinned=True)
