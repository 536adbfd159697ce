"""Which session a reference names: a file path, a session id, or an unambiguous id prefix."""

from __future__ import annotations

import os
from collections.abc import Iterable

from pitui.core.catalog.summary import SessionSummary
from pitui.core.errors import PituiError
from pitui.core.rows.safe_text import inert_path, one_line


def resolve_session(reference: str, sessions: Iterable[SessionSummary]) -> str:
    """The path of the session `reference` names among `sessions` (or the file it is).
    Raises `PituiError` when it names none, or more than one."""
    if not reference:
        raise PituiError("no session named: give a path, a session id or an id prefix")
    if os.sep in reference or reference.endswith(".jsonl"):
        if os.path.isfile(reference):
            return reference
        raise PituiError(f"no session file {one_line(reference)!r}")
    ids = [(str(s.id), s.path) for s in sessions]
    exact = [path for session_id, path in ids if session_id == reference]
    found = exact or [path for session_id, path in ids if session_id.startswith(reference)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise PituiError(f"no session with id or id prefix {one_line(reference)!r}")
    held = {session_id for session_id, path in ids if path in found}
    if len(held) == 1:  # one id in several files: here and in a remote's mirror, or a copy
        paths = ", ".join(inert_path(path) for path in found)
        raise PituiError(f"{len(found)} sessions have the id {one_line(held.pop())!r}: {paths}")
    raise PituiError(f"{len(found)} sessions have ids starting {one_line(reference)!r}: give more")
