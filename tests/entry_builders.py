"""Small builders of session entries for tests (raw dicts as Pi writes them, and Entries)."""

from __future__ import annotations

from typing import Any

from pitui.core.session.entry import Entry


def header(session_id: str = "s1", cwd: str = "/p") -> dict[str, Any]:
    """A current-format (v3) session header."""
    return {
        "type": "session",
        "version": 3,
        "id": session_id,
        "timestamp": "2025-01-01T00:00:00.000Z",
        "cwd": cwd,
    }


def ts(n: int) -> str:
    """An ISO timestamp `n` seconds after 2025-01-01T00:00:00Z."""
    return f"2025-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"


def msg(
    eid: str, parent: str | None, role: str = "user", text: str = "hi", n: int = 0, **kw: Any
) -> dict[str, Any]:
    """A message entry: user content as a string, other roles as one text block."""
    content: Any = text if role == "user" else [{"type": "text", "text": text}]
    return message_entry(eid, parent, {"role": role, "content": content, **kw}, n)


def message_entry(eid: str, parent: str | None, message: Any, n: int = 0) -> dict[str, Any]:
    return {
        "type": "message",
        "id": eid,
        "parentId": parent,
        "timestamp": ts(n),
        "message": message,
    }


def entries(raws: list[dict[str, Any]], start: int = 0) -> list[Entry]:
    """Entries as the reader would number them (header on line 1)."""
    return [Entry.from_raw(raw, start + i + 2, 0, start + i) for i, raw in enumerate(raws)]
