"""A v3 session exercising every entry type, role and tree shape Pi can write."""

from __future__ import annotations

import random

from pitui.demo.builder import (
    BASE_MS,
    MISSING_PARENT_ID,
    Entry,
    SessionBuilder,
    make_header,
    make_usage,
    png_base64,
)
from pitui.demo.content import SYSTEM_MESSAGE, turn


def generate_varied_session(
    rng: random.Random,
    cwd: str = "/home/dev/projects/webshop",
    *,
    start_ms: int = BASE_MS,
    parent_session: str | None = None,
    name: str | None = "Varied session",
) -> tuple[Entry, list[Entry]]:
    """A v3 session exercising every entry type, role and tree shape Pi can write."""
    header = make_header(rng, cwd, start_ms, parent_session=parent_session)
    b = SessionBuilder(rng, start_ms)
    _varied_opening(b)
    first_turn_end = turn(b, tools=2)
    _varied_messages(b)
    _varied_branches(b, first_turn_end)
    _varied_compactions(b)
    _varied_misc(b, name)
    _varied_roots(b)
    return header, b.entries


def _varied_opening(b: SessionBuilder) -> None:
    b.message(dict(SYSTEM_MESSAGE))
    b.set_model(0)
    b.add("thinking_level_change", thinkingLevel="medium")


def _varied_messages(b: SessionBuilder) -> None:
    image = {"type": "image", "data": png_base64(), "mimeType": "image/png"}
    b.user([{"type": "text", "text": "Here is a screenshot of the broken layout."}, image])
    b.assistant(
        [
            {"type": "thinking", "thinking": "The sidebar overflows its container."},
            {
                "type": "text",
                "text": "The sidebar overflows; add `min-width: 0` to the flex child.",
            },
        ]
    )
    b.message(
        {
            "role": "bashExecution",
            "command": "git status --short",
            "output": " M src/app.py\n?? notes.txt\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
        }
    )
    b.message(
        {
            "role": "bashExecution",
            "command": "ls -la /tmp",
            "output": "total 0\n",
            "exitCode": 0,
            "cancelled": False,
            "truncated": False,
            "excludeFromContext": True,
        }
    )
    b.message(
        {
            "role": "custom",
            "customType": "todo-reminder",
            "content": "Remember: run the linters before committing.",
            "display": True,
        }
    )
    b.message(
        {
            "role": "system",
            "content": "",
            "sections": {"skills": "<skills>\n- release: cut a release\n</skills>", "cwd": None},
            "toolsRemoved": [{"name": "write"}],
        }
    )
    b.set_model(2)
    b.assistant([], stop="aborted", error="Request was aborted")
    b.user("Try again please.")
    turn(b, tools=1)


def _varied_branches(b: SessionBuilder, fork_point: str) -> None:
    abandoned = b.leaf or ""
    b.branch_summary(
        fork_point,
        abandoned,
        "Explored fixing the layout with CSS grid; abandoned because Safari 15 lacks subgrid.",
    )
    turn(b, tools=1)
    second_abandoned = b.leaf or ""
    b.leaf = fork_point  # plain /tree navigation without a summary
    b.user("Actually, let's try a completely different approach.")
    b.assistant([{"type": "text", "text": "Sure. Let's start from the data model instead."}])
    b.branch_summary(fork_point, second_abandoned, "")  # empty summary: no context message
    turn(b, tools=0, thinking=False)


# The compactions, in order: the role of the message each keeps from (None: it keeps none, as
# Pi's retain-none compaction), the tools of the turn between that message and it, its summary
# and tokens before, and what else it carries (Pi's file lists, a system message).
_COMPACTIONS: tuple[tuple[str | None, int, str, int, Entry], ...] = (
    (
        "user",
        2,
        "## Goal\nFix the layout and the checkout flow.\n\n## Progress\n- Layout fixed\n",
        48_211,
        {"details": {"readFiles": ["src/app.py"], "modifiedFiles": ["src/app.py"]}},
    ),
    (None, 0, "## Goal\nCheckout flow.\n\n## Done\nEverything so far.", 61_004, {}),
    (
        "assistant",
        1,
        "## Goal\nShip the checkout fix.\n\n## Next\nWrite the changelog.",
        73_520,
        {"system_message": SYSTEM_MESSAGE},
    ),
)


def _varied_compactions(b: SessionBuilder) -> None:
    turn(b, tools=1)
    for keep_from, tools, summary, tokens_before, extra in _COMPACTIONS:
        kept = None
        if keep_from is not None:
            kept = b.find_on_path(keep_from)[-1]
            turn(b, tools=tools)
        b.compaction(summary, kept, tokens_before, **extra)
        turn(b, tools=1)


def _varied_misc(b: SessionBuilder, name: str | None) -> None:
    users = b.find_on_path("user")
    assistants = b.find_on_path("assistant")
    results = b.find_on_path("toolResult")
    b.label(users[-1], "checkpoint")
    b.label(assistants[-1], "good answer")
    b.label(assistants[-1], None)  # cleared
    b.add("session_info", name="first name")
    if name is not None:
        b.add("session_info", name=name)
    b.custom("my-extension", {"count": 42, "enabled": True})
    b.custom_message("deploy-status", "Staging deploy finished in 42s.", True, {"env": "staging"})
    b.custom_message("hidden-note", [{"type": "text", "text": "Hidden context note."}], False)
    b.add("context_edit", targetId=results[-1], replacement=None)
    b.add("context_edit", targetId=users[-1], replacement={"content": "Edited user request."})
    b.add(
        "context_edit",
        targetId=assistants[-1],
        replacement={"content": [{"type": "text", "text": "Edited answer."}]},
    )
    b.add(
        "usage",
        kind="cache_warm",
        provider=b.model[0],
        model=b.model[1],
        usage=make_usage(b.rng),
    )
    b.add("thinking_level_change", thinkingLevel="high")
    turn(b, tools=1)


def _varied_roots(b: SessionBuilder) -> None:
    b.leaf = None  # resetLeaf(): the next entry is a new root
    b.user("Starting over from scratch: what is in this repository?")
    b.assistant([{"type": "text", "text": "A web shop written in TypeScript with a Go backend."}])
    b.leaf = MISSING_PARENT_ID  # an orphan: its parent is not in the file
    b.user("This message's parent was lost when the file was hand-edited.")
    b.assistant([{"type": "text", "text": "Orphaned branch answer."}])
    b.set_model(1)
    turn(b, tools=1)
