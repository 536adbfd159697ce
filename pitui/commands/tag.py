"""`pitui tag FILE TAG...`: add tags to a session; pitui's own data, not the file's."""

from __future__ import annotations

import argparse

from pitui.commands.support.marking import add_tag_arguments, change_tags


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_tag_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return change_tags(args.file, args.tags, add=True)
