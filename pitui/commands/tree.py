"""`pitui tree FILE [--filter MODE] [--json]`: a session's entry tree, as Pi's /tree shows it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pitui.core.rows.all_texts import RowTexts
from pitui.core.rows.filters import passes
from pitui.core.rows.printed import tree_text
from pitui.core.rows.rows import FILTERS, TreeRows
from pitui.core.rows.safe_text import escape_json_c1
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


def run(args: argparse.Namespace) -> int:
    if args.json:
        tree = Session(args.file).tree
        text = json.dumps(to_json(tree, args.filter), ensure_ascii=False)
        sys.stdout.write(escape_json_c1(text) + "\n")
    else:
        texts = RowTexts()  # every row is printed: its text is taken as its line is read
        tree = Session(args.file, on_line=texts.take, decode=texts.decode).tree
        sys.stdout.write(tree_text(tree, args.filter, texts))
    return 0


def to_json(tree: SessionTree, filter: str = "default") -> list[dict[str, Any]]:
    """Every entry in file order. `depth` is its indent level with every entry shown,
    `active` whether it is on the path root → leaf, `shown` whether `filter` shows it."""
    every = TreeRows(tree, "everything")
    # every filter hides an assistant that says nothing (unless it is the leaf)
    prefetch_text_flags(e for e in tree.entries if e.role == "assistant")
    leaf = tree.leaf
    leaf_id = leaf.id if leaf is not None else None
    active = tree.active_path_ids()
    result = []
    for entry in tree.entries:
        row = every.row_of(entry.id)
        current = tree.get(entry.id) is entry  # a duplicate id: only the later line counts
        result.append(
            {
                "id": entry.id,
                "parentId": entry.parent_id,
                "type": entry.type,
                "role": entry.role,
                "label": tree.label_of(entry.id),
                "depth": row.depth if row is not None and current else None,
                "active": current and entry.id in active,
                "shown": current and passes(entry, filter, leaf_id, tree.labels),
            }
        )
    return result
