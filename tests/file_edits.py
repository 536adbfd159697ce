"""Sessions that write and edit files with Pi 1.6.0's tool shapes (for `pitui log`/`blame`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pitui.demo.builder import BASE_MS, SessionBuilder, make_header, session_path, write_session

# What Pi 1.6.0's edit tool answers (`generateEditDiff`, run once with Node) for the edit
# `CALC_EDITS` of `CALC_BEFORE` in src/calc.py.
CALC_BEFORE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
CALC_EDITS = [
    {"oldText": "    return a + b\n", "newText": "    total = a + b\n    return total\n"},
    {"oldText": "def sub(a, b):", "newText": "def subtract(a, b):"},
]
CALC_AFTER = (
    "def add(a, b):\n    total = a + b\n    return total\n\n\ndef subtract(a, b):\n"
    "    return a - b\n"
)
CALC_DETAILS = {
    "diff": " 1 def add(a, b):\n-2     return a + b\n+2     total = a + b\n+3     return total\n"
    " 3 \n 4 \n-5 def sub(a, b):\n+6 def subtract(a, b):\n 6     return a - b",
    "patch": "--- src/calc.py\n+++ src/calc.py\n@@ -1,6 +1,7 @@\n def add(a, b):\n-    return a + b\n"
    "+    total = a + b\n+    return total\n \n \n-def sub(a, b):\n+def subtract(a, b):\n"
    "     return a - b\n",
    "firstChangedLine": 2,
}


class EditingSession:
    """A session in `cwd` whose assistant calls write and edit, each answered by its result."""

    def __init__(self, cwd: str | Path, seed: int = 1, ms: int = BASE_MS) -> None:
        self.rng = random.Random(seed)
        self.builder = SessionBuilder(self.rng, ms)
        self.header = make_header(self.rng, str(cwd), ms)
        self.builder.user(f"work on the files (session {seed})")

    @property
    def id(self) -> str:
        return str(self.header["id"])

    def call(
        self,
        name: str,
        arguments: Any,
        *,
        error: bool = False,
        details: Any = None,
        answered: bool = True,
    ) -> str:
        """An assistant message with one call, then its result; the message's entry id."""
        call = self.builder.tool_call(name, arguments)
        entry_id = self.builder.assistant([{"type": "text", "text": "on it"}, call], "toolUse")
        if answered:
            text = "Could not edit file" if error else "Successfully done"
            self.builder.tool_result(call, text, is_error=error)
            if details is not None:
                self.builder.entries[-1]["message"]["details"] = details
        return entry_id

    def write(self, path: str | Path, content: str, **kw: Any) -> str:
        return self.call("write", {"path": str(path), "content": content}, **kw)

    def edit(self, path: str | Path, old: str, new: str, **kw: Any) -> str:
        return self.call(
            "edit", {"path": str(path), "edits": [{"oldText": old, "newText": new}]}, **kw
        )

    def branch_from(self, entry_id: str) -> None:
        """Go on from `entry_id` (as Pi's /tree): later entries start a new branch."""
        self.builder.leaf = entry_id

    def save(self, sessions: Path) -> Path:
        path = session_path(sessions, self.header)
        return write_session(path, self.header, self.builder.entries)


def sessions_folder(project: Path) -> Path:
    """Pi's sessions folder beside the `project` fixture's folder (tests/commands/conftest.py)."""
    return project.parent / "agent" / "sessions"
