"""`pitui context FILE [--leaf ID] [--json]`: the LLM context of a leaf."""

from __future__ import annotations

import argparse
import sys

from pitui.core.changes.file_messages import no_entry
from pitui.core.errors import PituiError
from pitui.core.format.jsonline import dumps
from pitui.core.rows.render_text import message_text
from pitui.core.rows.safe_text import escape_json_c1, visible
from pitui.core.session.context import Context
from pitui.core.session.session import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="session .jsonl file")
    parser.add_argument("--leaf", help="entry id to use as leaf (default: the last entry)")
    parser.add_argument("--json", action="store_true", help="print Pi's context object as JSON")


def run(args: argparse.Namespace) -> int:
    session = Session(args.file)
    if args.leaf is not None and session.tree.get(args.leaf) is None:
        raise PituiError(no_entry(args.leaf, args.file))
    context = session.context(args.leaf if args.leaf is not None else ...)
    if args.json:
        # JSON.stringify's text (a lone surrogate as its escape), terminal-safe
        sys.stdout.write(escape_json_c1(dumps(context.to_json())) + "\n")
    else:
        sys.stdout.write(render(context))
    return 0


def render(context: Context) -> str:
    model = context.settings.get("model")
    model_text = f"{model.get('provider')}/{model.get('modelId')}" if model else "none"
    lines = [
        f"leaf: {context.leaf.id if context.leaf else '(none)'}",
        f"model: {model_text}   thinking: {context.settings.get('thinkingLevel')}",
        f"messages: {len(context.messages)}   estimated tokens: {context.tokens}",
        "",
    ]
    for item in context.items:
        for message in item.messages:
            role = message.get("role", "?") if isinstance(message, dict) else "?"
            lines.append(f"── {role} ({item.entry.type} {item.entry.id})")
            lines.append(message_text(message))
            lines.append("")
    return visible("\n".join(lines)) + "\n"
