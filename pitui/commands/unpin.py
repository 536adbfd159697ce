"""`pitui unpin FILE...`: sessions back in their usual place in lists."""

from __future__ import annotations

import argparse

from pitui.commands.support.marking import add_file_arguments, set_pinned


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_file_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return set_pinned(args.files, pinned=False)
