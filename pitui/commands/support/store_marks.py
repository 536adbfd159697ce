"""How a command marks a session of another store than this machine's own: a remote's
mirrored one, an archived one (`pitui list`'s marks, shared by grep, log and blame)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pitui.core.rows.safe_text import one_line

if TYPE_CHECKING:
    from pitui.core.catalog.summary import SessionSummary


def store_mark(summary: SessionSummary | None) -> str:
    """`(NAME) ` before a remote's mirrored session, `(archived) ` before an archived one, as
    `pitui list` marks them; nothing for this machine's."""
    store = "local" if summary is None else summary.store
    if store == "local":
        return ""
    return "(archived) " if store == "archive" else f"({one_line(store)}) "


def store_json(summary: SessionSummary | None) -> dict[str, Any]:
    """`store` ("local", "archive", the remote's name; null without a session) and, for a
    remote's session, `remotePath`: its path there, as in `pitui list --json`."""
    if summary is None:
        return {"store": None}
    out: dict[str, Any] = {"store": summary.store}
    if summary.remote_path is not None:
        out["remotePath"] = summary.remote_path
    return out
