"""The `type` of each line Pi 1.6.0 writes to a session file (`SessionHeader` and the
`SessionEntry` union of its `core/session-manager.d.ts`).

Members are strings (`EntryType.MESSAGE == "message"`), so a line's `type` compares with
them as read. A per-entry loop on a large session may keep a bare string: on Python 3.11
reaching `EntryType.X` costs about 65 ns a time."""

from __future__ import annotations

from enum import StrEnum


class EntryType(StrEnum):
    SESSION = "session"  # the header, the file's first line
    MESSAGE = "message"
    THINKING_LEVEL_CHANGE = "thinking_level_change"
    MODEL_CHANGE = "model_change"
    USAGE = "usage"
    COMPACTION = "compaction"
    BRANCH_SUMMARY = "branch_summary"
    CUSTOM = "custom"
    LABEL = "label"
    SESSION_INFO = "session_info"
    CUSTOM_MESSAGE = "custom_message"
    CONTEXT_EDIT = "context_edit"


ENTRY_TYPES = frozenset(EntryType) - {EntryType.SESSION}  # the entries after the header
