"""`pitui tree FILE [--filter MODE] [--json] [--no-ids]`: a session's entry tree, as Pi's
/tree shows it, each row after its entry's id."""

from __future__ import annotations

import argparse
import sys
from json.encoder import encode_basestring

from pitui.core.rows.all_texts import RowTexts
from pitui.core.rows.filters import EVERYTHING, passes
from pitui.core.rows.printed import shown_rows, tree_chunks
from pitui.core.rows.row_entry import TextFlags
from pitui.core.rows.rows import FILTERS
from pitui.core.rows.safe_text import escape_json_c1
from pitui.core.session.collector import collector_paused
from pitui.core.session.prefetch import prefetch_text_flags
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument(
        "--filter", choices=FILTERS, default="default", help="which entries to show (as Pi)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print every entry with its place in the tree"
    )
    parser.add_argument(
        "--no-ids",
        action="store_true",
        help="leave out the entry ids before the rows (as Pi's /tree shows them)",
    )


def run(args: argparse.Namespace) -> int:
    if args.json:
        flags = TextFlags()  # every filter asks which assistants say nothing
        tree = Session(args.file, on_line=flags.take, decode=flags.decode).tree
        sys.stdout.write(escape_json_c1(to_json(tree, args.filter)) + "\n")
    else:
        texts = RowTexts()  # every row is printed: its text is taken as its line is read
        tree = Session(args.file, on_line=texts.take, decode=texts.decode).tree
        for chunk in tree_chunks(tree, args.filter, texts, ids=not args.no_ids):
            sys.stdout.write(chunk)
    return 0


def to_json(tree: SessionTree, filter: str = "default") -> str:
    """Every entry in file order, as `json.dumps` (not ASCII-only) writes a list of objects.
    `depth` is its indent level with every entry shown, `active` whether it is on the path
    root → leaf, `shown` whether `filter` shows it."""
    with collector_paused():
        return "[" + ", ".join(_json_objects(tree, filter)) + "]"


def _json_objects(tree: SessionTree, filter: str) -> list[str]:
    every = shown_rows(tree, EVERYTHING)
    depth_of = {entry.id: place.depth for entry, place in zip(*every[:2], strict=True)}
    # every filter hides an assistant that says nothing (unless it is the leaf)
    prefetch_text_flags(e for e in tree.entries if e.role == "assistant")
    leaf = tree.leaf
    leaf_id = leaf.id if leaf is not None else None
    active, labels, by_id = every.active, tree.labels, tree.by_id
    names: dict[str | None, str] = {None: "null"}  # types and roles, few: encoded once
    objects = []
    for entry in tree.entries:
        entry_id, kind, parent_id = entry.id, entry.type, entry.parent_id
        fields = entry.message_fields
        role = None if fields is None else fields.role
        current = by_id.get(entry_id) is entry  # a duplicate id: only the later line counts
        label = labels.get(entry_id)
        depth = depth_of.get(entry_id) if current else None
        kind_json = names.get(kind) or names.setdefault(kind, encode_basestring(kind))
        role_json = names.get(role) or names.setdefault(role, encode_basestring(role or ""))
        objects.append(
            f'{{"id": {encode_basestring(entry_id)}, '
            f'"parentId": {"null" if parent_id is None else encode_basestring(parent_id)}, '
            f'"type": {kind_json}, "role": {role_json}, '
            f'"label": {"null" if label is None else encode_basestring(label.text)}, '
            f'"depth": {"null" if depth is None else depth}, '
            f'"active": {_BOOL[current and entry_id in active]}, '
            f'"shown": {_BOOL[current and passes(entry, filter, leaf_id, labels)]}}}'
        )
    return objects


_BOOL = {True: "true", False: "false"}
