"""Text templates for generated conversations, and one user/assistant/tool turn."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pitui.demo.builder import Entry, SessionBuilder

TOPICS: tuple[str, ...] = (
    "the checkout flow",
    "the session parser",
    "the CSV importer",
    "the retry logic in the HTTP client",
    "the database migrations",
    "the login form validation",
    "the tree view widget",
    "the caching layer",
    "the CI pipeline",
    "the logging configuration",
)
FILES: tuple[str, ...] = (
    "src/app.py",
    "src/checkout/cart.ts",
    "pitui/core/session/reader.py",
    "tests/test_reader.py",
    "package.json",
    "README.md",
    "src/http/client.go",
    "migrations/0042_add_orders.sql",
    ".github/workflows/ci.yml",
    "config/logging.toml",
)
ASKS: tuple[str, ...] = (
    "Can you look at {topic} and tell me why the tests fail?",
    "Please refactor {topic} so it is easier to test.",
    "Add type hints to {file} and fix whatever mypy complains about.",
    "Why is {topic} so slow on large inputs?",
    "Write a test that reproduces the bug in {topic}.",
    "Explain how {topic} works, I inherited this code.",
    "Rename the helper in {file} and update every caller.",
)
THOUGHTS: tuple[str, ...] = (
    "The user wants me to look at {topic}. I should read {file} first and check how it is used.",
    "The failing assertion suggests an off-by-one error. Let me verify by reading {file}.",
    "There are two options: patch the caller or change the contract. Changing {file} is cleaner.",
)
ANSWERS: tuple[str, ...] = (
    "I found the problem in `{file}`: the loop stops one element early, so the last item of "
    "{topic} is never processed. I changed the bound and added a regression test.",
    "I refactored {topic} into smaller functions and moved the I/O out of `{file}`. "
    "The behaviour is unchanged and the tests pass.",
    "The slowdown comes from re-reading `{file}` for every record. Caching the parsed result "
    "makes {topic} roughly 40x faster on the large fixture.",
    "Done. `{file}` now has full type hints; mypy reports no errors.",
)


def pick_text(rng: random.Random, templates: Sequence[str]) -> str:
    return rng.choice(templates).format(topic=rng.choice(TOPICS), file=rng.choice(FILES))


def code_output(rng: random.Random, lines: int) -> str:
    names = ("parse", "load", "render", "cache", "index", "merge", "flush", "walk")
    out = []
    for i in range(lines):
        name = rng.choice(names)
        out.append(f"{i + 1:4d}  def {name}_{i}(self, value: int) -> int:  # {rng.choice(TOPICS)}")
    return "\n".join(out)


SYSTEM_MESSAGE: Entry = {
    "role": "system",
    "content": "",
    "sections": {
        "preamble": "You are an expert coding assistant. You help users with coding tasks.",
        "tools": "<tools>\n- read: Read a file\n- bash: Run a shell command\n- edit: Edit a file\n"
        "- write: Write a file\n</tools>",
        "cwd": "/project",
    },
    "toolsAdded": [
        {
            "name": "read",
            "description": "Read the contents of a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
        {
            "name": "bash",
            "description": "Execute a bash command.",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    ],
}


def turn(b: SessionBuilder, tools: int = 1, thinking: bool = True) -> str:
    """One user -> assistant(tool calls) -> tool results -> assistant exchange."""
    b.user(pick_text(b.rng, ASKS))
    calls = [
        b.tool_call("read", {"path": b.rng.choice(FILES)})
        if i % 2 == 0
        else b.tool_call("bash", {"command": "pytest -q"})
        for i in range(tools)
    ]
    blocks: list[Entry] = []
    if thinking:
        blocks.append(
            {"type": "thinking", "thinking": pick_text(b.rng, THOUGHTS), "thinkingSignature": "sig"}
        )
    blocks.append({"type": "text", "text": "Let me take a look."})
    b.assistant(blocks + calls, stop="toolUse" if calls else "stop")
    for call in calls:
        b.tool_result(call, code_output(b.rng, b.rng.randint(3, 12)))
    return b.assistant([{"type": "text", "text": pick_text(b.rng, ANSWERS)}])
